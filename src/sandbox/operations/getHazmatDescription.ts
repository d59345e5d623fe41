/** GetHazmatDescription: the hazardous-materials table entries of a UN or NA number. */
import { lookupHazmat } from '../carrier';
import type { OperationHandler } from '../context';
import { text } from '../text';
import { clientFault } from '../soap/fault';

export const getHazmatDescription: OperationHandler = ({ params }) => {
  const number = text(params.UNNANumber);
  if (!number) throw clientFault('UNNANumber is required, e.g. UN1203 or 1203.');
  if (!/^(UN|NA)?[\s-]*\d{4}$/i.test(number)) throw clientFault(`UNNANumber "${number}" is not a UN or NA number: write it as UN1203, NA1993 or 1203.`);
  // A well-formed number the table does not list is an empty list, not an error.
  return { UNNAList: lookupHazmat(number).map((e) => ({ Number: e.Number, Description: e.Description, NOS: e.NOS })) };
};
