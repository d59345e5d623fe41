/** The live contract: a service's WSDL read and held against the catalog, stored per environment, and what request files take from it. */
export { checkContract, ContractCancelled, ROLE_PLACEHOLDERS, ROLE_SETTINGS, type CheckContractInput, type ContractCheck } from './check';
export { byGravity, compareService, type ServiceComparison } from './compare';
export { contractForFile, overlayForContractFile, overlayForFile, shapeOverlay, type ShapeOverlay } from './overlay';
export { differenceScope, formatContractReport, reportGroups, type ReportGroup } from './report';
export {
  contractFileFor,
  CONTRACTS_FOLDER,
  readStoredContract,
  storedContractOf,
  writeStoredContract,
  STORED_CONTRACT_FORMAT,
  STORED_CONTRACT_VERSION,
  type StoredContract,
} from './snapshot';
export * from './types';
export { ContractReadError, readWsdl, type WsdlDocument, type WsdlOperation } from './wsdl';
export { compareExchanges, type CompareRepliesOptions, type ReplyDifference, type ReplyDifferenceKind } from './compareReplies';
