/** The sandbox's PDF renderers; each returns the bytes of a complete, standalone PDF. */
export { billOfLadingPdf } from './bol';
export { labelsPdf, labelStyles, checkLabelRequest, normalizeLabelStyle, MAX_LABELS, type LabelStyle, type LabelRequest } from './labels';
export { documentPdf } from './documents';
export { shipmentToBillOfLading } from './from-shipment';
export { encodeCode128, type Code128Symbol } from './barcode';
export type { BillOfLadingData, BolItem, BolMeta, BolParty, BolConsignee, BolRemitCod } from './types';
