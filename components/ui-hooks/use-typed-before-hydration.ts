"use client";
/**
 * A controlled text field adopts what was typed into it before React hydrated it.
 *
 * The server's HTML shows the field at once, and a user (or a test) can type into it before its
 * component hydrates. React attaches no listener to it until then and does not replay those
 * input events, so the component's state stays as the server rendered it while the field shows
 * the text: Send stays disabled, and the next render of the field wipes the text. Once, after the
 * field mounts, this hands the field's text to `onChange` when it differs from `value`.
 */
import { type RefObject, useEffect, useRef } from "react";

export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onChange: (v: string) => void,
): void {
  // The mount's props, read once: later renders are the user's own edits through React.
  const first = useRef({ value, onChange });
  useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== first.current.value) first.current.onChange(typed);
  }, [ref]);
}
