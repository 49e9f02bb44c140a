import { useNavigation } from "@remix-run/react";

/**
 * True while this page's form with the given intent (and, optionally, the same value in another field,
 * such as the fixture or note it acts on) is being submitted. The one pending check every form uses.
 */
export function usePending(intent?: string, field?: { name: string; value: string }): boolean {
  const navigation = useNavigation();
  if (navigation.state !== "submitting" || !navigation.formData) return false;
  if (intent !== undefined && navigation.formData.get("intent") !== intent) return false;
  if (field && navigation.formData.get(field.name) !== field.value) return false;
  return true;
}
