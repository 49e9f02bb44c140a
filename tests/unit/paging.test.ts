import { describe, expect, it } from "vitest";
import { pageCount, pageWindow } from "~/lib/paging";

describe("paging", () => {
  it("counts pages, with one page for an empty list", () => {
    expect(pageCount(0, 9)).toBe(1);
    expect(pageCount(9, 9)).toBe(1);
    expect(pageCount(10, 9)).toBe(2);
    expect(pageCount(21, 10)).toBe(3);
  });
  it("gives the offset of a page, the first page for anything below 1", () => {
    expect(pageWindow(1, 9)).toEqual({ page: 1, offset: 0 });
    expect(pageWindow(3, 10)).toEqual({ page: 3, offset: 20 });
    expect(pageWindow(0, 10)).toEqual({ page: 1, offset: 0 });
    expect(pageWindow(-4, 10)).toEqual({ page: 1, offset: 0 });
  });
});
