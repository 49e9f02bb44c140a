import { describe, expect, it } from "vitest";
import { ageOn, fieldErrors, profileSchema, ResetPasswordSchema, SignupSchema, todayIn } from "~/lib/validation";

const today = "2026-11-22";
const base = { username: "Kicker_9", gender: "male", timeZone: "Europe/London" };

function errorsOf(input: Record<string, unknown>) {
  const r = profileSchema(today).safeParse(input);
  return r.success ? {} : fieldErrors(r.error);
}

describe("profile schema", () => {
  it("accepts a player who turns 18 exactly today", () => {
    expect(profileSchema(today).safeParse({ ...base, dateOfBirth: "2008-11-22" }).success).toBe(true);
  });
  it("refuses a player who is one day short of 18 with the spec's message", () => {
    expect(errorsOf({ ...base, dateOfBirth: "2008-11-23" }).dateOfBirth).toBe("You must be at least 18 years old to join FootyCoach.");
  });
  it("asks for a missing date of birth", () => {
    expect(errorsOf({ ...base, dateOfBirth: "" }).dateOfBirth).toBe("Please enter your date of birth.");
  });
  it("allows a 50-character self-description and refuses 51", () => {
    const ok = profileSchema(today).safeParse({ ...base, gender: "self-describe", genderSelfDescribe: "x".repeat(50), dateOfBirth: "1990-01-01" });
    expect(ok.success).toBe(true);
    expect(errorsOf({ ...base, gender: "self-describe", genderSelfDescribe: "x".repeat(51), dateOfBirth: "1990-01-01" }).genderSelfDescribe).toMatch(/50/);
  });
  it("requires the self-description when self-describe is chosen", () => {
    expect(errorsOf({ ...base, gender: "self-describe", genderSelfDescribe: "  ", dateOfBirth: "1990-01-01" }).genderSelfDescribe).toBeTruthy();
  });
  it("drops the self-description for other genders and falls back to UTC for an unknown zone", () => {
    const r = profileSchema(today).parse({ ...base, genderSelfDescribe: "ignored", dateOfBirth: "1990-01-01", timeZone: "Mars/Base" });
    expect(r.genderSelfDescribe).toBeNull();
    expect(r.timeZone).toBe("UTC");
  });
  it("refuses an unknown gender value", () => {
    expect(errorsOf({ ...base, gender: "other", dateOfBirth: "1990-01-01" }).gender).toBeTruthy();
  });
});

describe("age on a calendar day", () => {
  it("counts birthdays by the calendar", () => {
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
  });
  it("takes today in the player's time zone", () => {
    const instant = new Date("2026-11-22T23:30:00Z");
    expect(todayIn(instant, "Europe/London")).toBe("2026-11-22");
    expect(todayIn(instant, "Asia/Tokyo")).toBe("2026-11-23");
  });
});

describe("sign-up and reset schemas", () => {
  it("upper-cases the referral code and limits it to 8 characters", () => {
    expect(SignupSchema.parse({ email: "A@B.co", password: "secret1", referralCode: "abc123" })).toMatchObject({ email: "a@b.co", referralCode: "ABC123" });
    expect(SignupSchema.safeParse({ email: "a@b.co", password: "secret1", referralCode: "ABCDEFGHI" }).success).toBe(false);
    expect(SignupSchema.parse({ email: "a@b.co", password: "secret1", referralCode: "" }).referralCode).toBeNull();
  });
  it("needs a password of 6 to 128 characters", () => {
    const short = ResetPasswordSchema.safeParse({ token: "t".repeat(43), password: "12345" });
    expect(short.success ? null : fieldErrors(short.error).password).toBe("Password must be at least 6 characters long.");
    expect(SignupSchema.safeParse({ email: "a@b.co", password: "x".repeat(129) }).success).toBe(false);
    expect(SignupSchema.safeParse({ email: "a@b.co", password: "x".repeat(128) }).success).toBe(true);
  });
});
