/** Generators that read the catalog: samples, JSON schemas and snippets. */
export {
  Stop,
  plain,
  sampleFile,
  sampleParams,
  sampleRequestFile,
  sampleValueKeys,
  TEMPLATE,
  type SampleLeaf,
  type SampleOptions,
  type SampleNode,
  type SampleObject,
} from './samples';
export { SAMPLE_DATE, SAMPLE_INCLUDES, SAMPLE_VALUES } from './sampleValues';
export { snippetLines, defaultSnippetBody } from './snippetText';
export { ENTRY_SCHEMA, requestSchema, schemaFiles, shapeSchema, shapeSchemaPath } from './schemas';
export { SNIPPETS_FILE, snippets, type SnippetDef } from './snippets';
export { GENERATED_FOLDERS, generatedFiles, jsonText, staleFiles, type GeneratedFile, type TreeReader } from './files';
export { VSCODE_KEYWORDS, VARIABLE_ONLY, hasNumericSuggestions, simpleValueSchema, type JsonSchema } from './jsonSchema';
export { fieldDescription, typePhrase, shapeDescription } from './describe';
