/** Where the data lives when neither --db nor DATABASE_URL says (D23); light, for the CLI's parse. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/risklookup.db';

/** The one resolution of the database URL, for every entry point: --db, else DATABASE_URL, else the default. */
export function databaseUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}
