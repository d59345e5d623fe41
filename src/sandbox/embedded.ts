/**
 * What the extension takes from the sandbox, built as a bundle of its own (dist/sandbox.js) and
 * required on first use: the sandbox's data sets, pdf-lib and the WSDL writer cost the editor
 * nothing until a sandbox starts or a WSDL is shown.
 */
export { startSandbox } from './server';
export { wsdlFor } from './wsdl/wsdl';
