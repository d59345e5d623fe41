/**
 * One reader (docs/architecture.md#one-reader): parseReply (src/core/reply/parse.ts) is the only
 * way a reply is read. Behind it a SOAP reply has two readings: the common case in one pass over
 * the text (src/core/reply/commonReply.ts), everything else parsed into elements and read along
 * the catalog (src/core/xml/read.ts). This is the only test that knows both (eslint.config.mjs
 * refuses an import of commonReply.ts anywhere else outside src/core/reply and src/core/xml);
 * every other test reads replies through parseReply.
 *
 * parseReply is held both ways on the sandbox's real reply to every shape over both SOAP bindings
 * (results, faults, in-body errors), and on thousands of copies of them spoilt as text —
 * whitespace, comments, CDATA, references, attributes, xsi:nil, other namespaces and prefixes,
 * renamed, repeated, swapped and emptied elements, values not of their type, tags cut short or
 * mismatched, text around the root: the same result, findings, fault and documents, whichever way
 * read it.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, operations, shapeLabel, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type Binding, type OperationDef } from '../../src/core/catalog';
import { XML_NS, XMLNS_NS } from '../../src/core/xml/node';
import { COMMON_TEXT_LIMIT, readCommonReply } from '../../src/core/reply/commonReply';
import { parseReply } from '../../src/core/reply/parse';
import { seeded } from './key-spellings';
import { sampleReplies } from './sample-replies';

interface Reply {
  readonly op: OperationDef;
  readonly binding: Binding;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
}

const envelopeOf = (binding: Binding) => (binding === 'soap12' ? SOAP12_ENVELOPE_NS : SOAP11_ENVELOPE_NS);

/** parseReply of `text` as `r` came, one way or the other, as JSON (key order included). */
async function parsed(r: Reply, text: string, common: boolean): Promise<string> {
  const out = await parseReply({
    op: r.op,
    binding: r.binding,
    namespaces: DEFAULT_NAMESPACES,
    status: r.status,
    statusText: 'OK',
    contentType: r.contentType,
    text,
    onePass: common,
  });
  return JSON.stringify(out);
}

function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)];
}

/** Offsets of every match of `re` in `text`. */
function places(text: string, re: RegExp): RegExpExecArray[] {
  return [...text.matchAll(new RegExp(re.source, 'g'))];
}

/** One way to spoil a reply's text; returns the text unchanged when the reply has no place for it. */
const SPOIL: Array<(text: string, next: () => number) => string> = [
  // Whitespace between tags, as a pretty-printing server writes it.
  (t, next) => {
    const m = pick(places(t, />(?=<)/), next);
    return m ? `${t.slice(0, m.index + 1)}\n    ${t.slice(m.index + 1)}` : t;
  },
  // A comment, a processing instruction or CDATA where a tag starts.
  (t, next) => {
    const m = pick(places(t, /><(?!\/)/), next);
    return m ? `${t.slice(0, m.index + 1)}${pick(['<!-- note -->', '<?pi x?>', '<![CDATA[x]]>'], next)}${t.slice(m.index + 1)}` : t;
  },
  // An attribute, xsi:nil, another or the same default namespace, a prefix declaration, single quotes.
  (t, next) => {
    const m = pick(places(t, /<[A-Za-z][\w:]*(?=[ >/])/), next);
    const attribute = pick(
      [
        ` xmlns="${XMLNS_NS}"`,
        ' a="1"',
        ' xsi:nil="true"',
        ' xmlns="urn:elsewhere"',
        ` xmlns="${DEFAULT_NAMESPACES.service}"`,
        ` xmlns='${DEFAULT_NAMESPACES.service}'`,
        ' xmlns:t="urn:t"',
        ' xmlns="a&amp;b"',
        ' xmlns=""',
        ' ',
      ],
      next,
    );
    return m ? `${t.slice(0, m.index + m[0].length)}${attribute}${t.slice(m.index + m[0].length)}` : t;
  },
  // An element renamed, start and end.
  (t, next) => {
    const m = pick(places(t, /<([A-Za-z]\w*)>/), next);
    return m ? t.split(`<${m[1]}>`).join('<Bogus>').split(`</${m[1]}>`).join('</Bogus>') : t;
  },
  // A value replaced: empty, not of its type, references good and bad, CDATA, an element.
  (t, next) => {
    const m = pick(places(t, />[^<]+</), next);
    const value = pick(
      ['', 'not-a-number', ' 42 ', 'A &amp; B', 'x &bogus; y', '&#65;', '<![CDATA[c]]>', '<Inner>x</Inner>', 'true', '-1.50', '2026-11-27T00:00:00'],
      next,
    );
    return m ? `${t.slice(0, m.index + 1)}${value}${t.slice(m.index + m[0].length - 1)}` : t;
  },
  // A leaf repeated, or two neighbouring leaves swapped.
  (t, next) => {
    const m = pick(places(t, /<([A-Za-z]\w*)>[^<]*<\/\1>(<([A-Za-z]\w*)>[^<]*<\/\3>)?/), next);
    if (!m) return t;
    const whole = m[0];
    const first = m[2] ? whole.slice(0, whole.length - m[2].length) : whole;
    return `${t.slice(0, m.index)}${next() < 0.5 || !m[2] ? first + whole : m[2] + first}${t.slice(m.index + whole.length)}`;
  },
  // <X></X> and <X/> turned into each other.
  (t, next) => {
    if (next() < 0.5) {
      const m = pick(places(t, /<([A-Za-z]\w*)><\/\1>/), next);
      return m ? `${t.slice(0, m.index)}<${m[1]}/>${t.slice(m.index + m[0].length)}` : t;
    }
    const m = pick(places(t, /<([A-Za-z]\w*)\/>/), next);
    return m ? `${t.slice(0, m.index)}<${m[1]}></${m[1]}>${t.slice(m.index + m[0].length)}` : t;
  },
  // An end tag mismatched or with space inside; a tag cut short; the text cut short.
  (t, next) => {
    const m = pick(places(t, /<\/([A-Za-z][\w:]*)>/), next);
    if (!m) return t;
    const end = pick([`</${m[1]}x>`, `</${m[1]} >`, `</${m[1]}`, ''], next);
    return `${t.slice(0, m.index)}${end}${t.slice(m.index + m[0].length)}`;
  },
  (t, next) => t.slice(0, Math.floor(next() * t.length)),
  // The envelope: another prefix, a Header, another envelope namespace, text or a BOM around the root, no declaration.
  (t, next) => {
    switch (Math.floor(next() * 8)) {
      case 7: {
        // Declarations XML forbids or repeats on the envelope.
        const declaration = pick(
          [
            ` xmlns:x="${XML_NS}"`,
            ' xmlns:x=""',
            ' xmlns:xsi="urn:again"',
            ' xmlns:xmlns="urn:u"',
            ` xmlns="${XMLNS_NS}"`,
            ` xmlns:xml="${XML_NS}"`,
            ' xmlns="urn:a" xmlns="urn:b"',
          ],
          next,
        );
        return t.replace(/(<soap(12)?:Envelope)/, `$1${declaration}`);
      }
      case 0:
        return t.replace(/<(\/?)soap(12)?:/g, '<$1s:').replace(/xmlns:soap(12)?=/, 'xmlns:s=');
      case 1:
        return t.replace(/(<soap(12)?:)Body>/, '$1Header/>$1Body>');
      case 2:
        return t.replace(SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS);
      case 3:
        return `\uFEFF${t}`;
      case 4:
        return `${t} trailing`;
      case 5:
        return `${t}\n<!-- after -->\n`;
      default:
        return t.replace(/^<\?xml[^>]*\?>/, next() < 0.5 ? '' : ' <?xml version="1.0"?>');
    }
  },
  // A character where a tag's `<` was.
  (t, next) => {
    const m = pick(places(t, /<[A-Za-z]/), next);
    return m ? `${t.slice(0, m.index)}${pick(['z', ' ', '>'], next)}${t.slice(m.index + 1)}` : t;
  },
  // A prefix bound to the service namespace, used on an element of the content.
  (t, next) => {
    const m = pick(places(t, /<([A-Za-z]\w*)>([^<]*)<\/\1>/), next);
    return m ? `${t.slice(0, m.index)}<t:${m[1]} xmlns:t="${DEFAULT_NAMESPACES.service}">${m[2]}</t:${m[1]}>${t.slice(m.index + m[0].length)}` : t;
  },
];

describe("one reader: the common SOAP reply read in one pass is parseReply's general reading", function () {
  this.timeout(180_000);
  const replies: Reply[] = [];

  before(async () => {
    // A result, an answer to a key the sandbox does not know, and a fault.
    const all = await sampleReplies((op) => op.bindings.filter((b) => b === 'soap11' || b === 'soap12'), ['common-reading-key-0001', 'not-a-known-key', '']);
    for (const { op, binding, reply } of all) {
      const contentType = reply.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
      replies.push({ op, binding, status: reply.status, contentType, text: reply.bodyText });
    }
  });

  it("reads every shape's result over SOAP 1.1 and 1.2 in one pass, as the general way does", async () => {
    const results = replies.filter((r) => r.status === 200 && !r.text.includes(':Fault>'));
    assert.ok(results.length >= 2 * operations.length, `${results.length} results`);
    const general: string[] = [];
    for (const r of results) {
      const label = `${shapeLabel(r.op)} ${r.binding}`;
      assert.ok(
        readCommonReply(r.text, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES),
        `${label}: the sandbox's own reply is the common case: ${r.text.slice(0, 400)}`,
      );
      assert.equal(await parsed(r, r.text, true), await parsed(r, r.text, false), label);
      general.push(r.text);
    }
    assert.ok(general.length >= 2 * operations.length);
  });

  it("reads a reply as the binding asked, whatever the last reply's envelope was", async () => {
    // The envelope's start tag is recognised from the last reply's; the same text read for the
    // other SOAP version must still be refused as that version's envelope.
    const results = replies.filter((r) => r.status === 200 && !r.text.includes(':Fault>'));
    for (const r of results) {
      const other: Reply = { ...r, binding: r.binding === 'soap11' ? 'soap12' : 'soap11' };
      for (const as of [r, other, r])
        assert.equal(await parsed(as, r.text, true), await parsed(as, r.text, false), `${shapeLabel(r.op)} ${r.binding} read as ${as.binding}`);
      assert.equal(readCommonReply(r.text, r.op, envelopeOf(other.binding), DEFAULT_NAMESPACES), undefined);
    }
  });

  it('leaves faults to the general way, and reads them the same', async () => {
    const faults = replies.filter((r) => r.text.includes(':Fault>'));
    assert.ok(faults.length > 0, 'the sandbox answered some request with a fault');
    for (const r of faults) {
      assert.equal(readCommonReply(r.text, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES), undefined, shapeLabel(r.op));
      assert.equal(await parsed(r, r.text, true), await parsed(r, r.text, false), `${shapeLabel(r.op)} ${r.binding}`);
    }
  });

  it('the same replies spoilt as text: the same reading either way, common or not', async () => {
    let cases = 0;
    let common = 0;
    let changed = 0;
    for (const [n, r] of replies.entries()) {
      for (let round = 0; round < 150; round++) {
        const seed = n * 1000 + round;
        const next = seeded(seed);
        let text = r.text;
        for (let k = 1 + Math.floor(next() * 2); k > 0; k--) text = pick(SPOIL, next)(text, next);
        if (text === r.text) continue;
        const fast = await parsed(r, text, true);
        const general = await parsed(r, text, false);
        assert.equal(fast, general, `${shapeLabel(r.op)} ${r.binding}, seed ${seed}: ${text.slice(0, 2000)}`);
        cases++;
        if (readCommonReply(text, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES)) common++;
        if (general !== (await parsed(r, r.text, false))) changed++;
      }
    }
    assert.ok(cases > 5000, `${cases} spoilt replies`);
    assert.ok(common > cases / 20, `${common} of them still read in one pass: the spoiling leaves some common`);
    assert.ok(changed > cases / 2, `${changed} of them read differently from the reply they came from: the spoiling reaches the reading`);
  });

  it('leaves a reply above COMMON_TEXT_LIMIT to the general way', () => {
    const r = replies.find((x) => readCommonReply(x.text, x.op, envelopeOf(x.binding), DEFAULT_NAMESPACES))!;
    const padded = r.text.replace(/<\/soap(12)?:Envelope>\s*$/, (end) => `${' '.repeat(COMMON_TEXT_LIMIT)}${end}`);
    assert.ok(padded.length > COMMON_TEXT_LIMIT);
    assert.equal(readCommonReply(padded, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES), undefined);
    assert.ok(readCommonReply(r.text, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES));
  });

  it('gives up on a character XML forbids written as itself, which the general way locates', async () => {
    const r = replies.find((x) => readCommonReply(x.text, x.op, envelopeOf(x.binding), DEFAULT_NAMESPACES))!;
    const bad = r.text.replace(/^<\?xml version="1\.0"/, '<?xml version="1.0\x1b"');
    assert.notEqual(bad, r.text);
    assert.equal(readCommonReply(bad, r.op, envelopeOf(r.binding), DEFAULT_NAMESPACES), undefined);
    assert.equal(await parsed(r, bad, true), await parsed(r, bad, false));
    assert.match(await parsed(r, bad, true), /U\+001B \(written as itself\) is not a character XML allows/);
  });
});
