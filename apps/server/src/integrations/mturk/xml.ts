/** The XML of MTurk's documents: the ExternalQuestion the client sends and the QuestionFormAnswers it reads back. */

/** Namespace of the ExternalQuestion schema (latest version, 2006-07-14). */
export const EXTERNAL_QUESTION_NAMESPACE =
  'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd';
/** An Answer document larger than this is not parsed (MTurk answers are small form posts). */
export const MAX_ANSWER_CHARS = 1_000_000;

/** The ExternalQuestion document for CreateHIT's `Question`, with the URL XML-escaped. */
export function externalQuestionXml(externalUrl: string, frameHeight: number): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<ExternalQuestion xmlns="${EXTERNAL_QUESTION_NAMESPACE}">` +
    `<ExternalURL>${escapeXml(externalUrl)}</ExternalURL>` +
    `<FrameHeight>${frameHeight}</FrameHeight>` +
    '</ExternalQuestion>'
  );
}

/** Escapes text for an XML element or attribute value. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The FreeText answers of a QuestionFormAnswers document by QuestionIdentifier (the first wins when a field
 * repeats). A plain scan of the flat Answer/QuestionIdentifier/FreeText structure: no DTDs, no external entities,
 * nothing evaluated. A document with a DOCTYPE or ENTITY declaration, or that is too large, yields no answers.
 */
export function parseQuestionFormAnswers(xml: string | undefined | null): Record<string, string> {
  const answers: Record<string, string> = {};
  if (typeof xml !== 'string' || xml.length === 0 || xml.length > MAX_ANSWER_CHARS) return answers;
  if (/<!(?:DOCTYPE|ENTITY)/i.test(xml)) return answers;
  const answerBlock = /<(?:[A-Za-z_][\w.-]*:)?Answer(?:\s[^>]*)?>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?Answer\s*>/g;
  for (const match of xml.matchAll(answerBlock)) {
    const body = match[1] ?? '';
    const id = elementText(body, 'QuestionIdentifier');
    if (id === null) continue;
    const key = id.trim();
    if (key === '' || Object.hasOwn(answers, key)) continue;
    const value = elementText(body, 'FreeText') ?? elementText(body, 'SelectionIdentifier');
    if (value !== null) answers[key] = value;
  }
  return answers;
}

/** The decoded text of the first `<name>` element in `xml` (namespace prefix allowed), or null. */
export function elementText(xml: string, name: string): string | null {
  const element = new RegExp(
    `<(?:[A-Za-z_][\\w.-]*:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[A-Za-z_][\\w.-]*:)?${name}\\s*>)`,
  );
  const match = element.exec(xml);
  if (!match) return null;
  return decodeXmlText(match[1] ?? '');
}

/** Decodes CDATA sections, the five predefined entities and numeric character references; leaves the rest. */
export function decodeXmlText(raw: string): string {
  let out = '';
  const cdata = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
  let last = 0;
  for (const match of raw.matchAll(cdata)) {
    out += decodeEntities(raw.slice(last, match.index));
    out += match[1] ?? '';
    last = match.index + match[0].length;
  }
  return out + decodeEntities(raw.slice(last));
}

export const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      const valid = code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && code !== 0;
      return valid ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}
