/**
 * Core's public entry: the sandbox, the inspector, the CLI, the extension, the benchmarks and the
 * scripts import core from here and nowhere deeper (eslint.config.mjs holds them to it), so what
 * core offers the other rooms is this file, and core may rearrange its folders behind it.
 *
 * It loads Node code (node:crypto, node:path; undici's types): the webview imports ./view instead.
 * It touches no file, variable or connection itself: the faces hand it a context (./context.ts).
 */
export * from './view';

export * from './calendar';
export * from './catalog';
export * from './context';
export * from './contract';
export * from './envelope';
export * from './environments';
export * from './load';
export * from './objects';
export * from './probe';
export * from './generate';
export * from './recognize';
export * from './redact';
export * from './reply';
export * from './requestFile';
export * from './runner';
export * from './runBackend';
export * from './send';
export * from './transport';
export * from './validation';

// The XML reader and writer, for the sandbox, which answers along the same catalog.
export { attr, childElements, parseXml, XmlError, XMLNS_NS, type XmlAttribute, type XmlElement } from './xml/dom';
export { xmlDocument, XmlNode, type XmlDocument } from './xml/builder';
export type { JsonObject, ReadIssue } from './xml/read';
export { writeRecord, type XmlSink } from './xml/write';

// The runner's reports, for `carrier run`.
export { CliReporter, type CliReporterOptions, type TextSink } from './runner/reporters/cli';
export { jsonReport, JSON_REPORT_VERSION } from './runner/reporters/json';
export { junitTestcase, junitXml } from './runner/reporters/junit';
export { duration, relativeTo, waitedLines, waitedText, where, type Relative } from './runner/reporters/format';

// Two findings share a name: the exchange's (what a reply says) keeps it, the request file's (what
// validation says about a file, with its range) is named for its file.
export type { Finding } from './exchange';
export type { Finding as RequestFileFinding, FindingCode } from './requestFile/types';
export { probeSender, type ProbeSendInput } from './probeSend';
