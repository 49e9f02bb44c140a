import { describe, expect, it } from "vitest";
import { fieldErrors, isCalendarDate, profileSchema, ResetPasswordSchema, SignupSchema, startDateField, todayIn } from "~/lib/validation";

const base = { username: "Kicker_9", gender: "male", timeZone: "Europe/London" };

function errorsOf(input: Record<string, unknown>) {
  const r = profileSchema().safeParse(input);
  return r.success ? {} : fieldErrors(r.error);
}

describe("profile schema", () => {
  // The 18+ rule itself lives in the profiles trigger (tests/db/integrity.test.ts): the form does not recompute it.
  it("refuses a date of birth that is not a calendar date instead of shifting it", () => {
    expect(errorsOf({ ...base, dateOfBirth: "2000-02-30" }).dateOfBirth).toBe("Please enter a valid date of birth.");
    expect(errorsOf({ ...base, dateOfBirth: "0000-01-01" }).dateOfBirth).toBe("Please enter a valid date of birth.");
    expect(errorsOf({ ...base, dateOfBirth: "2000-02-29" }).dateOfBirth).toBeUndefined();
  });
  it("asks for a missing date of birth", () => {
    expect(errorsOf({ ...base, dateOfBirth: "" }).dateOfBirth).toBe("Please enter your date of birth.");
  });
  it("allows a 50-character self-description and refuses 51", () => {
    const ok = profileSchema().safeParse({
      ...base,
      gender: "self-describe",
      genderSelfDescribe: "x".repeat(50),
      dateOfBirth: "1990-01-01",
    });
    expect(ok.success).toBe(true);
    expect(
      errorsOf({ ...base, gender: "self-describe", genderSelfDescribe: "x".repeat(51), dateOfBirth: "1990-01-01" }).genderSelfDescribe,
    ).toMatch(/50/);
  });
  it("requires the self-description when self-describe is chosen", () => {
    expect(
      errorsOf({ ...base, gender: "self-describe", genderSelfDescribe: "  ", dateOfBirth: "1990-01-01" }).genderSelfDescribe,
    ).toBeTruthy();
  });
  it("drops the self-description for other genders and falls back to UTC for an unknown zone", () => {
    const r = profileSchema().parse({ ...base, genderSelfDescribe: "ignored", dateOfBirth: "1990-01-01", timeZone: "Mars/Base" });
    expect(r.genderSelfDescribe).toBeNull();
    expect(r.timeZone).toBe("UTC");
  });
  it("takes an optional display name: trimmed, blank = none, at most 40 characters, no control characters", () => {
    const dob = { dateOfBirth: "1990-01-01" };
    expect(profileSchema().parse({ ...base, ...dob, displayName: "  Kick Master  " }).displayName).toBe("Kick Master");
    expect(profileSchema().parse({ ...base, ...dob, displayName: "   " }).displayName).toBeNull();
    expect(profileSchema().parse({ ...base, ...dob }).displayName).toBeNull();
    expect(profileSchema().parse({ ...base, ...dob, displayName: "x".repeat(40) }).displayName).toHaveLength(40);
    expect(errorsOf({ ...base, ...dob, displayName: "x".repeat(41) }).displayName).toBe("Display name must be at most 40 characters.");
    expect(errorsOf({ ...base, ...dob, displayName: "a\u0007b" }).displayName).toBe("Display name may not contain control characters.");
  });
  it("refuses an unknown gender value", () => {
    expect(errorsOf({ ...base, gender: "other", dateOfBirth: "1990-01-01" }).gender).toBeTruthy();
  });
});

describe("calendar dates", () => {
  it("accepts real dates only (leap days, month lengths, years 1900..9999)", () => {
    for (const ok of ["2024-02-29", "2027-01-31", "1900-01-01", "9999-12-31", "2027-04-30"]) expect(isCalendarDate(ok)).toBe(true);
    for (const bad of [
      "2027-02-30",
      "2027-13-45",
      "0000-01-01",
      "2025-02-29",
      "2027-04-31",
      "2027-00-10",
      "2027-1-01",
      " 2027-01-01",
      "2027-01-01\n",
      "1899-12-31",
    ]) {
      expect(isCalendarDate(bad)).toBe(false);
    }
  });
  it("a start date must be a real date, today or later", () => {
    const field = startDateField("2027-01-10");
    expect(field.safeParse("2027-02-30").error?.issues[0].message).toBe("Please enter a valid start date.");
    expect(field.safeParse("2027-13-45").error?.issues[0].message).toBe("Please enter a valid start date.");
    expect(field.safeParse("2027-01-09").error?.issues[0].message).toBe("Start date must be today or a future date.");
    expect(field.safeParse("").error?.issues[0].message).toBe("Please fill in all required fields.");
    expect(field.safeParse("2027-01-10").success).toBe(true);
  });
  it("takes today in the player's time zone", () => {
    const instant = new Date("2026-11-22T23:30:00Z");
    expect(todayIn(instant, "Europe/London")).toBe("2026-11-22");
    expect(todayIn(instant, "Asia/Tokyo")).toBe("2026-11-23");
  });
});

describe("sign-up and reset schemas", () => {
  it("upper-cases the referral code", () => {
    expect(SignupSchema.parse({ email: "A@B.co", password: "secret1", referralCode: "abc123" })).toMatchObject({
      email: "a@b.co",
      referralCode: "ABC123",
    });
    expect(SignupSchema.parse({ email: "a@b.co", password: "secret1", referralCode: "" }).referralCode).toBeNull();
    expect(SignupSchema.parse({ email: "a@b.co", password: "secret1" }).referralCode).toBeNull();
  });
  it("never refuses a sign-up for its referral code: other characters are stripped, what is still no code is dropped", () => {
    const code = (referralCode: string) => SignupSchema.safeParse({ email: "a@b.co", password: "secret1", referralCode });
    // Typed with a dash or a space, in any case: letters and digits kept, upper-cased.
    expect(code("AB-12345")).toMatchObject({ success: true, data: { referralCode: "AB12345" } });
    expect(code("ab 12345")).toMatchObject({ success: true, data: { referralCode: "AB12345" } });
    expect(code(" abcd-efgh ")).toMatchObject({ success: true, data: { referralCode: "ABCDEFGH" } });
    expect(code("K7M2.Q9PX\t")).toMatchObject({ success: true, data: { referralCode: "K7M2Q9PX" } });
    // Not a code even then (too long, nothing left, huge): left out, the sign-up goes on.
    for (const junk of ["ABCDEFGHI", "---", "  ", "\u0000\u0001", "é", "x".repeat(3000)]) {
      expect(code(junk), JSON.stringify(junk.slice(0, 12))).toMatchObject({ success: true, data: { referralCode: null } });
    }
  });
  it("needs a password of 6 to 128 characters", () => {
    const short = ResetPasswordSchema.safeParse({ token: "t".repeat(43), password: "12345" });
    expect(short.success ? null : fieldErrors(short.error).password).toBe("Password must be at least 6 characters long.");
    expect(SignupSchema.safeParse({ email: "a@b.co", password: "x".repeat(129) }).success).toBe(false);
    expect(SignupSchema.safeParse({ email: "a@b.co", password: "x".repeat(128) }).success).toBe(true);
  });
});
