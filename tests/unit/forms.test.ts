import { createCookie } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseForm, readForm } from "~/lib/forms.server";
import { readCookie } from "~/lib/read-cookie.server";

const post = (body: BodyInit, type?: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("readForm", () => {
  it("reads url-encoded and multipart forms", async () => {
    expect((await readForm(post("a=1&b=2", "application/x-www-form-urlencoded"))).get("b")).toBe("2");
    const fd = new FormData();
    fd.set("a", "1");
    expect((await readForm(new Request("http://localhost/x", { method: "POST", body: fd }))).get("a")).toBe("1");
  });

  it("answers 400, never a 500, for bodies that are not forms", async () => {
    expect(await statusOf(readForm(post('{"email":"a@b.c"}', "application/json")))).toBe(400);
    expect(await statusOf(readForm(post("--x\r\n", "multipart/form-data")))).toBe(400); // no boundary
    expect(await statusOf(readForm(post("--x\r\nbroken", "multipart/form-data; boundary=x")))).toBe(400); // truncated
    expect(await statusOf(readForm(post("a=1")))).toBe(400); // text/plain
    expect(await statusOf(readForm(new Request("http://localhost/x", { method: "POST" })))).toBe(400);
  });
});

describe("parseForm", () => {
  it("gives the first message per field and the first overall", () => {
    const schema = z.object({ a: z.string({ error: "A is required." }).min(2, "A is short."), b: z.string({ error: "B is required." }) });
    const fd = new FormData();
    fd.set("a", "x");
    const parsed = parseForm(fd, schema);
    expect(parsed).toEqual({ ok: false, errors: { a: "A is short.", b: "B is required." }, message: "A is short." });
  });
});

describe("readCookie", () => {
  const cookie = createCookie("fc_session", { secrets: ["s3cret"] });
  it("reads a malformed or unsigned value as no cookie instead of throwing", async () => {
    for (const raw of ["fc_session=7b1f3c2e-9f7a-4c55-8d0e-2f4b8a6c1d3e", "fc_session=%E0%A4%A", "fc_session=...", "fc_session=a.b.c"]) {
      const request = new Request("http://localhost/", { headers: { Cookie: raw } });
      expect(await readCookie(cookie, request), raw).toBeNull();
    }
  });
  it("reads a value it signed", async () => {
    const request = new Request("http://localhost/", { headers: { Cookie: await cookie.serialize("token-value") } });
    expect(await readCookie(cookie, request)).toBe("token-value");
  });
});
