/**
 * The error body (D2) as the named schema `ErrorBody`, and the error responses of an operation:
 * one per status, described with the reasons that status can carry.
 */
import { Type, type TSchema } from 'typebox';
import { ERROR_REASONS, reasonDocsLink, type ErrorReason } from '../lib/errors.ts';
import { renderReasonsMarkdown } from '../lib/error-docs.ts';
import { RESPONSE_HEADERS, RETRY_AFTER_HEADER } from './response-headers.ts';
import { stringEnum } from '../lib/string-enum.ts';

export const ErrorBodySchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'What went wrong and how to fix it, for a person to read; may change between versions' }),
    code: Type.Integer({ description: 'Same as the HTTP status' }),
    reason: stringEnum(Object.keys(ERROR_REASONS) as ErrorReason[], {
      description: 'Stable identifier for programs to branch on (D2); what each means is in the description of ErrorBody and at /api/v1/docs/errors',
    }),
    docs: Type.String({
      description:
        'Path of the explanation of `reason` on this server (what it means, what to do): ' +
        '`/api/v1/docs/errors#reason-<reason>`; resolve it against the URL you called',
    }),
  },
  {
    $id: 'ErrorBody',
    description: `The body of every non-2xx answer (spec 2.7, D2). Branch on \`reason\`, never on \`error\`.\n\n${renderReasonsMarkdown()}`,
    example: {
      success: false,
      error: 'API key revoked: generate a new key in the API section of your member dashboard',
      code: 403,
      reason: 'key_revoked',
      docs: reasonDocsLink('key_revoked'),
    },
    additionalProperties: false,
  },
);

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid API key',
  403: 'The key may not be used',
  404: 'No such endpoint',
  429: 'Daily allowance used up',
  500: 'Internal error',
  503: 'Temporarily unavailable',
};

/** The OpenAPI response of one error status: `ErrorBody`, with the reasons it can carry. */
function errorResponse(status: number): TSchema {
  const reasons = (Object.keys(ERROR_REASONS) as ErrorReason[]).filter((r) => ERROR_REASONS[r] === status);
  const retry = status === 429 || status === 503;
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: \`reason\` is ${reasons.map((r) => `\`${r}\``).join(', ')}`,
    headers: retry ? { ...RESPONSE_HEADERS, ...RETRY_AFTER_HEADER } : RESPONSE_HEADERS,
    content: { 'application/json': { schema: Type.Ref('ErrorBody') } },
  };
}

/** Error responses of an operation, by status. */
export function errorResponses(statuses: readonly number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorResponse(s)]));
}
