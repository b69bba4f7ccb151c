/** Where the data lives when neither --db nor DATABASE_URL says (D23); light, for the CLI's parse. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/risklookup.db';
