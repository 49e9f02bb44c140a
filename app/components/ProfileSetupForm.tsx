import { Form } from "@remix-run/react";
import { useState, useSyncExternalStore } from "react";
import { usePending } from "~/components/usePending";
import { Field, FormError } from "./Field";
import { DISPLAY_NAME_MAX, GENDERS, SELF_DESCRIBE_MAX } from "~/lib/profile-fields";

interface ProfileDefaults {
  username?: string | null;
  dateOfBirth?: string | null;
  gender?: string | null;
  genderSelfDescribe?: string | null;
  displayName?: string | null;
}

interface Props {
  defaults?: ProfileDefaults | null;
  errors?: Record<string, string | undefined>;
  message?: string | null;
  /** Inline step inside another page: the button reads Continue and the player stays where they were. */
  inline?: boolean;
  redirectTo?: string;
  firstTime?: boolean;
}

const noSubscription = () => () => {};
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";

export function ProfileSetupForm({ defaults, errors = {}, message, inline = false, redirectTo, firstTime }: Props) {
  const saving = usePending("save-profile");
  const [gender, setGender] = useState(defaults?.gender ?? "");
  const [selfDescribe, setSelfDescribe] = useState(defaults?.genderSelfDescribe ?? "");
  // The browser's zone once hydrated ("" in the server HTML, so both renders agree).
  const timeZone = useSyncExternalStore(noSubscription, browserTimeZone, () => "");
  const today = new Date().toISOString().slice(0, 10);

  return (
    <section className="card profile-setup" aria-labelledby="profile-setup-title">
      {firstTime ? (
        <div className="welcome-banner" role="note">
          <strong>Welcome to FootyCoach!</strong> Let&apos;s finish setting up your profile.
        </div>
      ) : null}
      <h1 id="profile-setup-title">{inline ? "Complete your profile" : "Profile Setup"}</h1>
      <FormError message={message} />
      <Form method="post" action="/setup-profile" noValidate>
        <input type="hidden" name="intent" value="save-profile" />
        <input type="hidden" name="timeZone" value={timeZone} />
        {inline ? <input type="hidden" name="inline" value="1" /> : null}
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          required
          minLength={3}
          maxLength={30}
          defaultValue={defaults?.username ?? ""}
          error={errors.username}
        />
        <Field
          label="Display name (optional)"
          name="displayName"
          autoComplete="nickname"
          maxLength={DISPLAY_NAME_MAX}
          defaultValue={defaults?.displayName ?? ""}
          hint={`Up to ${DISPLAY_NAME_MAX} characters, shown on Scout leaderboards instead of your username.`}
          error={errors.displayName}
        />
        <Field
          label="Date of Birth"
          name="dateOfBirth"
          type="date"
          required
          max={today}
          defaultValue={defaults?.dateOfBirth ?? ""}
          error={errors.dateOfBirth}
        />
        <fieldset className="field" aria-describedby={errors.gender ? "gender-error" : undefined}>
          <legend>Gender</legend>
          <div className="radio-group">
            {GENDERS.map((g) => (
              <label key={g.value} className="radio">
                <input
                  type="radio"
                  name="gender"
                  value={g.value}
                  checked={gender === g.value}
                  onChange={() => setGender(g.value)}
                  required
                />
                {g.label}
              </label>
            ))}
          </div>
          {errors.gender ? (
            <div className="field-error" id="gender-error" role="alert">
              {errors.gender}
            </div>
          ) : null}
        </fieldset>
        {gender === "self-describe" ? (
          <Field
            label="Self-description"
            name="genderSelfDescribe"
            placeholder="Your term here"
            maxLength={SELF_DESCRIBE_MAX}
            value={selfDescribe}
            onChange={(e) => setSelfDescribe(e.target.value)}
            hint={<span aria-live="polite">{`${selfDescribe.length} / ${SELF_DESCRIBE_MAX}`}</span>}
            error={errors.genderSelfDescribe}
          />
        ) : null}
        <button className="btn btn-primary btn-block" type="submit" disabled={saving}>
          {saving ? "Saving…" : inline ? "Continue" : "Save Profile"}
        </button>
      </Form>
    </section>
  );
}
