import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FormError } from "~/components/Field";
import { useHydrated } from "~/components/useHydrated";
import { usePending } from "~/components/usePending";
import { CSV_MAX_BYTES, CSV_TOO_LARGE, parseFixturesCsv, REQUIRED_COLUMNS, type CsvParseResult } from "~/lib/csv";
import { ADMIN_PATHS } from "./sections";

export type UploadResult =
  | { intent: "upload-csv"; ok: true; message: string; failed: { line: number; reason: string }[] }
  | { intent: "upload-csv"; ok: false; message: string; errors?: Record<string, string> };

const PREVIEW_LIMIT = 200;
const COLUMNS = ["id", ...REQUIRED_COLUMNS, "home_score", "away_score"] as const;

/**
 * CSV fixtures upload. With JavaScript, choosing a file shows a preview with each row's errors (the same
 * parser and rules as the server, app/lib/csv.ts) before Import; without it the plain multipart form posts
 * the file. Either way the server parses and validates the file again.
 */
export function CsvUploadSection({ result }: { result: UploadResult | null }) {
  const hydrated = useHydrated();
  const busy = usePending("upload-csv");
  const [preview, setPreview] = useState<CsvParseResult | null>(null);
  const [reading, setReading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  // A new server result replaces the preview (adjusted while rendering) and clears the chosen file (an effect).
  const [seenResult, setSeenResult] = useState(result);
  if (result !== seenResult) {
    setSeenResult(result);
    if (result) setPreview(null);
  }
  useEffect(() => {
    if (result && fileRef.current) fileRef.current.value = "";
  }, [result]);

  async function onFile(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) {
      setPreview(null);
      return;
    }
    if (file.size > CSV_MAX_BYTES) {
      setPreview({ ok: false, message: CSV_TOO_LARGE });
      return;
    }
    setReading(true);
    try {
      setPreview(parseFixturesCsv(await file.text()));
    } catch (error) {
      setPreview({ ok: false, message: `CSV parse error: ${(error as Error)?.message ?? "the file could not be read."}` });
    } finally {
      setReading(false);
    }
  }

  const canImport = !hydrated || (preview !== null && preview.ok && !reading);
  const valid = preview?.ok ? preview.rows.length : 0;
  const invalid = preview?.ok ? preview.errors.length : 0;

  return (
    <section aria-labelledby="upload-title" className="admin-section">
      <h2 id="upload-title">CSV Fixtures Upload</h2>
      <div className="card admin-form">
        <p>
          Required columns: <code>{REQUIRED_COLUMNS.join(", ")}</code>. Optional: <code>id</code>, <code>home_score</code>,{" "}
          <code>away_score</code>. Rows are matched on <code>id</code> when given, else on league, season, match day and teams. An empty
          status means pending. Up to 1 MB and 5,000 rows.
        </p>
        <p>
          <a href="/admin/fixtures-template.csv" download className="btn btn-link">
            Download template CSV
          </a>
        </p>
        <Form method="post" action={ADMIN_PATHS.upload} encType="multipart/form-data" className="admin-upload-form">
          <input type="hidden" name="intent" value="upload-csv" />
          <div className="field">
            <label htmlFor="csv-file">CSV file</label>
            <input
              ref={fileRef}
              id="csv-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
              onChange={(event) => void onFile(event)}
            />
          </div>
          <div className="admin-form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy || !canImport}>
              {busy ? "Importing..." : "Import"}
            </button>
          </div>
        </Form>
        {reading ? <p role="status">Loading...</p> : null}
      </div>

      {preview && !busy ? (
        <div className="card admin-preview" aria-labelledby="preview-title">
          <h3 id="preview-title">Preview</h3>
          {!preview.ok ? (
            <FormError message={preview.message} />
          ) : (
            <>
              <p role="status">
                {valid} {valid === 1 ? "row" : "rows"} ready, {invalid} with errors.
                {preview.preview.length > PREVIEW_LIMIT ? ` Showing the first ${PREVIEW_LIMIT} rows.` : ""}
              </p>
              <div className="table-wrap">
                <table className="table admin-preview-table">
                  <thead>
                    <tr>
                      <th scope="col">Line</th>
                      {COLUMNS.map((c) => (
                        <th key={c} scope="col">
                          {c}
                        </th>
                      ))}
                      <th scope="col">Check</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.preview.slice(0, PREVIEW_LIMIT).map((row) => (
                      <tr key={row.line} className={row.error ? "row-error" : undefined}>
                        <td className="num">{row.line}</td>
                        {COLUMNS.map((c) => (
                          <td key={c} data-label={c}>
                            {row.values[c]}
                          </td>
                        ))}
                        <td>
                          {row.error ? <span className="preview-error">{row.error}</span> : <span className="badge badge-success">OK</span>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
      ) : null}

      {result ? (
        <div className="card admin-upload-result" aria-labelledby="upload-result-title">
          <h3 id="upload-result-title">Upload result</h3>
          <p role="status" className={result.ok ? "upload-summary" : "form-error"} data-testid="upload-summary">
            {result.message}
          </p>
          {result.ok && result.failed.length > 0 ? (
            <ul className="upload-failures" aria-label="Failed lines">
              {result.failed.map((f) => (
                <li key={`${f.line}-${f.reason}`}>
                  Line {f.line}: {f.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
