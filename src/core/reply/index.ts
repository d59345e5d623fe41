export { parseReply, type ParsedReply, type ReplyInput } from './parse';
export { decodeFault, describeFault, isFault } from './fault';
export { decodeText, mediaType, charsetOf, type DecodedText } from './decodeText';
export { inBodyFindings } from './carriers';
export { decodeDocuments } from './documents';
export { countPdfPages, scanPdfPages } from './pdfPages';
