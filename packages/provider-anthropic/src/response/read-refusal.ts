import { asNonEmptyString, asRecord } from '@tiny/provider-utils';

/**
 * The refusal of a message whose `stop_reason` is `refusal`, from its `stop_details` (on the
 * message, or on the stream's `message_delta`): the `explanation` the API gives, else a sentence
 * naming the `category` when one was sent. The API sends no refusal text of its own on older
 * models (`content: []`, no `stop_details`), so a refusal is always described: `refusal` is never
 * empty when the model refused. `undefined` for any other stop reason.
 * @internal
 */
export function readRefusal(stopReason: string | undefined, stopDetails: unknown): string | undefined {
  if (stopReason !== 'refusal') return undefined;
  const details = asRecord(stopDetails);
  const explanation = asNonEmptyString(details?.explanation)?.trim();
  if (explanation !== undefined && explanation !== '') return explanation;
  const category = asNonEmptyString(details?.category);
  return `The model declined the request (stop_reason "refusal"${category === undefined ? '' : `, category "${category}"`}) without an explanation.`;
}
