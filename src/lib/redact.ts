/** Keeps API keys out of logs and audit records (D21), wherever a client put them. */
const KEY_LIKE = /rlk1[A-Za-z0-9]{60}/g;
const SECRET_IN_URL = /([?&](?:api_key|apikey|key|token|access_token)=)[^&#]*/gi;

export function redactSecrets(text: string): string {
  return text.replace(KEY_LIKE, '[REDACTED]').replace(SECRET_IN_URL, '$1[REDACTED]');
}
