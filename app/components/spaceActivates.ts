import type { KeyboardEvent } from "react";

/** A link styled and announced as a button also answers the Space key, as buttons do. */
export function spaceActivates(event: KeyboardEvent<HTMLElement>) {
  if (event.key === " ") {
    event.preventDefault();
    event.currentTarget.click();
  }
}
