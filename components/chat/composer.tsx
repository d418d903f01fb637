"use client";
/**
 * The composer: Enter sends, Shift+Enter makes a new line; Stop replaces Send while a turn runs.
 * `/compact [focus]` is a slash command (ui.md) handed to `onCompact` instead of being sent.
 */
import { useEffect, useRef } from "react";
import { useTypedBeforeHydration } from "@/components/ui-hooks/use-typed-before-hydration";

export function parseSlashCommand(text: string): { command: "compact"; focus?: string } | undefined {
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const focus = m[1]?.trim();
  return { command: "compact", ...(focus ? { focus } : {}) };
}

export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  onCompact,
  busy,
  disabled,
}: {
  value: string;
  onChange: (v: string) => void;
  onSend: (text: string) => void;
  onStop: () => void;
  onCompact: (focus?: string) => void;
  busy: boolean;
  disabled?: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useTypedBeforeHydration(ref, value, onChange);
  // Grow with the text (up to 240px); `value` is the trigger, read through the element.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [value]);

  const submit = () => {
    const text = value.trim();
    if (!text || busy) return;
    const slash = parseSlashCommand(text);
    if (slash) {
      onCompact(slash.focus);
      onChange("");
      return;
    }
    onSend(text);
    onChange("");
  };

  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={ref}
        aria-label="Message"
        placeholder="Message the model, or /compact [focus]"
        value={value}
        disabled={disabled}
        rows={2}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
        className="min-h-[2.5rem] flex-1 resize-none rounded border border-line bg-[var(--bg)] px-3 py-2 focus:outline-2 focus:outline-[var(--color-accent)]"
      />
      {busy ? (
        <button type="button" onClick={onStop} className="rounded border border-line px-4 py-2 font-medium">
          Stop
        </button>
      ) : (
        <button type="submit" disabled={disabled || !value.trim()} className="rounded bg-[var(--color-accent)] px-4 py-2 font-medium text-white disabled:opacity-50 dark:text-black">
          Send
        </button>
      )}
    </form>
  );
}
