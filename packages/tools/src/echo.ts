/** Longest part of a caller's value repeated back in a message. */
export const MAX_ECHO_CHARS = 60;

/**
 * A caller's value as a message repeats it: whole when short, else a prefix and its length,
 * so a huge id or name can never blow a result past the output budget.
 *
 * @example
 * echo('proc_abc') // '"proc_abc"'
 * echo('x'.repeat(100_000)) // '"xxxx…" (100,000 characters)'
 */
export function echo(value: string, max = MAX_ECHO_CHARS): string {
  if (value.length <= max) return JSON.stringify(value);
  let cut = max;
  const code = value.charCodeAt(cut - 1);
  // Never end the prefix on the first half of a surrogate pair.
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${JSON.stringify(value.slice(0, cut))}… (${value.length.toLocaleString('en-US')} characters)`;
}

/** Like echo, but a short value without quotes, control characters or spaces is shown bare. */
export function echoBare(value: string, max = MAX_ECHO_CHARS): string {
  return value.length <= max && /^[^\s"\\\p{Cc}]+$/u.test(value) ? value : echo(value, max);
}
