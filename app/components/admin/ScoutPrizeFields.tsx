import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Field } from "~/components/Field";
import { PRIZE_DESCRIPTION_MAX, PRIZE_TITLE_MAX, PRIZE_URL_MAX } from "~/lib/competition-options";

interface Props {
  values: { prizeTitle?: string; prizeDescription?: string; prizeTermsUrl?: string; prizeImageUrl?: string };
}

const noSubscription = () => () => {};

/**
 * The prize of a Scout competition in the admin Create Competition form. Without JavaScript the fields are always
 * there, marked "Scout only" (the server refuses them for other types); once JavaScript runs they appear only
 * while the form's Type is Scout, and are disabled (so not posted) otherwise.
 */
export function ScoutPrizeFields({ values }: Props) {
  const ref = useRef<HTMLFieldSetElement>(null);
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [type, setType] = useState<string | null>(null);

  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const typeSelect = () => form.elements.namedItem("type") as HTMLSelectElement | null;
    setType(typeSelect()?.value ?? "");
    const onChange = (event: Event) => {
      if ((event.target as HTMLSelectElement | null)?.name === "type") setType((event.target as HTMLSelectElement).value);
    };
    form.addEventListener("change", onChange);
    return () => form.removeEventListener("change", onChange);
  }, []);

  const off = hydrated && type !== null && type !== "scout";
  return (
    <fieldset ref={ref} className="scout-prize-fields" hidden={off} disabled={off} aria-describedby="cc-prize-note">
      <legend>Scout prize</legend>
      <p className="hint" id="cc-prize-note">
        Scout only: leave these empty for knockout and season competitions. Addresses must start with https://.
      </p>
      <div className="admin-grid">
        <Field
          id="cc-prize-title"
          label="Prize title"
          name="prizeTitle"
          maxLength={PRIZE_TITLE_MAX}
          defaultValue={values.prizeTitle ?? ""}
        />
        <Field
          id="cc-prize-terms-url"
          label="Prize terms URL"
          name="prizeTermsUrl"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={PRIZE_URL_MAX}
          defaultValue={values.prizeTermsUrl ?? ""}
        />
        <Field
          id="cc-prize-image-url"
          label="Prize image URL"
          name="prizeImageUrl"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={PRIZE_URL_MAX}
          defaultValue={values.prizeImageUrl ?? ""}
        />
      </div>
      <div className="field">
        <label htmlFor="cc-prize-description">Prize description</label>
        <textarea
          id="cc-prize-description"
          name="prizeDescription"
          rows={3}
          maxLength={PRIZE_DESCRIPTION_MAX}
          defaultValue={values.prizeDescription ?? ""}
        />
      </div>
    </fieldset>
  );
}
