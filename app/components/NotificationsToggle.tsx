import { Form, useSubmit } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { usePending } from "~/components/usePending";
import { reportPushError } from "~/components/PushSetup";
import type { PushConfig } from "~/env.server";
import { PushPermissionError, clearPush, pushSupported, setUpPush } from "~/lib/push.client";

/**
 * The /profile notifications toggle. Without JavaScript it is a plain form for the setting itself. With it,
 * turning on first subscribes this browser (permission, subscription, save-subscription); turning off first
 * drops this browser's subscription or token, then the form's action removes every saved subscription and turns
 * the setting off (app/routes/_app.profile.tsx).
 */
export function NotificationsToggle({
  enabled,
  config,
  fcmToken,
  fcmTokenUpdatedAt,
}: {
  enabled: boolean;
  config: PushConfig;
  fcmToken: string | null;
  fcmTokenUpdatedAt: string | null;
}) {
  const pending = usePending("notifications");
  const [working, setWorking] = useState(false);
  const busy = pending || working;
  const submit = useSubmit();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (config.kind === "off" || !pushSupported()) return; // the setting alone, as without JavaScript
    event.preventDefault();
    const form = event.currentTarget;
    setWorking(true);
    const work = enabled
      ? clearPush(config, { server: false })
      : setUpPush(config, { notificationsEnabled: false, fcmToken, fcmTokenUpdatedAt }, { force: true });
    work
      .then(
        () => submit(form),
        (error: unknown) => {
          reportPushError(error);
          // A refused permission keeps the setting off (the alert says why); anything else (the push service
          // unreachable) still saves the setting, and the next visit subscribes again.
          if (!(error instanceof PushPermissionError)) submit(form);
        },
      )
      .finally(() => setWorking(false));
  };

  return (
    <Form method="post" className="setting-row" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="notifications" />
      <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
      <span id="notifications-label">Notifications (selection deadline reminders)</span>
      <button type="submit" className="switch" role="switch" aria-checked={enabled} aria-labelledby="notifications-label" disabled={busy}>
        {enabled ? "On" : "Off"}
      </button>
    </Form>
  );
}
