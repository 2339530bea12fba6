// Words for the ADP §5 semantic factor ("word overlap … between the query text and the agent's
// description + skill labels"). One tokenizer for both sides and for the stored `words` column,
// so the SQL prefilter (`words && query words`) and the score agree on what a word is.

/** Too common to say anything about a capability (English; the API speaks English). */
const STOPWORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "for",
  "from",
  "has",
  "have",
  "i",
  "in",
  "into",
  "is",
  "it",
  "its",
  "of",
  "on",
  "or",
  "our",
  "that",
  "the",
  "their",
  "this",
  "to",
  "was",
  "we",
  "will",
  "with",
  "you",
  "your",
  "any",
  "all",
  "via",
  "per",
  "not",
  "no",
]);

const MAX_WORD_LENGTH = 32;
/** Stored words per agent card: enough for a long description, bounded for the GIN index. */
const MAX_CARD_WORDS = 512;
/** Words taken from a discover query or a mission (title first, then the description). */
export const MAX_QUERY_WORDS = 64;

/** Distinct lower-case letter/digit runs (NFKC), stopwords and 1-character runs dropped, in order. */
export function words(text: string, max: number): string[] {
  const out = new Set<string>();
  for (const m of text
    .normalize("NFKC")
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0].slice(0, MAX_WORD_LENGTH);
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    out.add(w);
    if (out.size >= max) break;
  }
  return [...out];
}

/** An agent card's words: its name, description and skill labels (segments split on / and -). */
export const cardWords = ({
  name,
  description,
  skills,
}: {
  name: string;
  description?: string | undefined;
  skills: readonly string[];
}): string[] =>
  words([name, description ?? "", ...skills.map((s) => s.replace(/[/_-]+/g, " "))].join(" "), MAX_CARD_WORDS);

/** A mission read as a discovery query: its title, then the start of its description. */
export const missionWords = (title: string, description: string): string[] =>
  words(`${title} ${description}`, MAX_QUERY_WORDS);
