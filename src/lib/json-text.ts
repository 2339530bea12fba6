// Lone UTF-16 surrogates. JSON text can carry them as escapes ("\ud800");
// JSON.parse accepts them, and they then break whatever needs well-formed Unicode downstream
// (UTF-8 encoders, canonical JSON for signatures, Postgres text) — a 500 instead of a 400. Raw
// UTF-8 bytes cannot encode one (the decoder substitutes U+FFFD), so only escapes can.

const LONE_SURROGATE = /[\uD800-\uDFFF]/u; // with the u flag a valid pair is one code point and does not match

/** True if any string (key or value) anywhere in `value` holds a lone surrogate. Iterative: no stack depth limit. */
export function hasLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (LONE_SURROGATE.test(v)) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** A JSON text that parses to something holding a lone surrogate. Cheap when there is no escape at all. */
export function jsonTextHasLoneSurrogate(text: string): boolean {
  if (!/\\u[dD][89a-fA-F]/.test(text)) return false;
  try {
    return hasLoneSurrogate(JSON.parse(text));
  } catch {
    return false; // malformed JSON: the validator answers that
  }
}
