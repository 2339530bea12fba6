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

// Nesting depth (docs/decisions.md "Strict requests"): JSON.parse itself handles deep nesting, but every
// recursive reader after it (validation, canonical JSON, Postgres jsonb, a log serialiser) may
// overflow the stack on a text only a few KB long. Depth is counted on the text, before parsing.

/** The deepest JSON any request, relay or fetched document may nest (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

/** True if the JSON text nests objects/arrays deeper than `limit` (strings skipped; no parse). */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      if (++depth > limit) return true;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return false;
}

/** JSON.parse that refuses a text nested deeper than `limit` with a SyntaxError, as malformed JSON. */
export function parseJsonBounded(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonTooDeep(text, limit)) throw new SyntaxError(`JSON nested deeper than ${limit} levels`);
  return JSON.parse(text);
}
