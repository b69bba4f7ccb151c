// The quota's statements of one API search, as the server runs them on SQLite (prepared, each its
// own autocommit, WAL, synchronous = NORMAL), before and after issue 27's quota per member: the
// key look-up that reads the day's count with the key, and the atomic check-and-increment (D18).
// Run under callgrind to count instructions (stable on a loaded machine, where time is not):
//
//   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p node scripts/bench/quota-statements.mjs DB before|after N
//
// and subtract a run with N = 0: (Ir(N) - Ir(0)) / N is the instructions per search.
import Database from 'better-sqlite3';

const [file, variant, countText] = process.argv.slice(2);
const count = Number(countText);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');

const BEFORE = {
  holder: `select "api_keys"."id" as "keyId", "api_keys"."member_id" as "memberId", "api_keys"."daily_limit" as "dailyLimit", "api_keys"."revoked_at" as "revokedAt",
    "members"."ref" as "memberRef", "members"."status" as "memberStatus", "members"."tier" as "memberTier", "members"."agreement_signed_on" as "agreementSignedOn",
    "usage_counters"."used" as "usedToday"
    from "api_keys" inner join "members" on "members"."id" = "api_keys"."member_id"
    left join "usage_counters" on "usage_counters"."subject" = 'key:' || api_keys.id and "usage_counters"."day" = ?
    where "api_keys"."digest" = ?`,
  subject: (key) => `key:${key.id}`,
};
const AFTER = {
  holder: `select "api_keys"."id" as "keyId", "api_keys"."member_id" as "memberId", coalesce("members"."key_daily_limit", "api_keys"."daily_limit") as "dailyLimit",
    "api_keys"."revoked_at" as "revokedAt",
    "members"."ref" as "memberRef", "members"."status" as "memberStatus", "members"."tier" as "memberTier", "members"."agreement_signed_on" as "agreementSignedOn",
    "usage_counters"."used" as "usedToday"
    from "api_keys" inner join "members" on "members"."id" = "api_keys"."member_id"
    left join "usage_counters" on "usage_counters"."subject" = 'member:' || api_keys.member_id and "usage_counters"."day" = ?
    where "api_keys"."digest" = ?`,
  subject: (key) => `member:${key.member_id}`,
};
const CONSUME = `insert into "usage_counters" ("subject", "day", "used") values (?, ?, 1)
  on conflict ("subject", "day") do update set "used" = usage_counters.used + 1 where "usage_counters"."used" < ? returning "used"`;

const v = variant === 'after' ? AFTER : BEFORE;
const key = db.prepare('select id, member_id, digest from api_keys where revoked_at is null order by id desc limit 1').get();
const holder = db.prepare(v.holder);
const consume = db.prepare(CONSUME);
const day = '2099-01-01';
const subject = v.subject(key);
let last = null;
for (let i = 0; i < count; i++) {
  last = holder.get(day, key.digest);
  consume.get(subject, day, 1e9);
}
db.prepare('delete from usage_counters where day = ?').run(day);
db.close();
process.stdout.write(`${variant} ${count} ${JSON.stringify(last)}\n`);
