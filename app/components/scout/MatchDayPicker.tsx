import { Form, useLocation, useNavigate } from "@remix-run/react";
import { useId } from "react";
import { matchDaysNewestFirst } from "~/lib/scout";

interface Props {
  current: number;
  value: number;
  /** The other query parameters of the view (competition, tab, view), kept by the no-JavaScript form. */
  keep: Readonly<Record<string, string>>;
}

/** Match day 1 up to the current one, newest first (?md=): navigates on change, or with Go without JavaScript. */
export function MatchDayPicker({ current, value, keep }: Props) {
  const id = useId();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Form method="get" className="scout-md-picker" replace preventScrollReset>
      {Object.entries(keep).map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={v} />
      ))}
      <label htmlFor={id}>Match Day</label>
      <select
        id={id}
        name="md"
        value={value}
        onChange={(e) => {
          const params = new URLSearchParams(location.search);
          params.set("md", e.target.value);
          navigate(`?${params.toString()}`, { replace: true, preventScrollReset: true });
        }}
      >
        {matchDaysNewestFirst(current).map((d) => (
          <option key={d} value={d}>
            Match Day {d}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn btn-secondary">
          Go
        </button>
      </noscript>
    </Form>
  );
}
