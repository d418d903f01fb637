/**
 * FAKE credentials, one of each kind the scanner knows (lib/secrets/kinds.ts), built at run time
 * from a seeded generator so they match the secretlint rules' shapes. None is real: every one
 * that can spell it carries "FAKE" (the Databricks token is hex, the Hugging Face one letters
 * only), and nothing key-shaped is written in the repository's text.
 *
 * `fakeSecrets(seed)` gives `{ rule, value }` pairs; `value` is exactly what the scanner must
 * report and mask (for a URL with a password, the password). `text` is a sentence holding the
 * credential as it would appear in a session (an env line, a URL, a config file).
 */

export interface FakeSecret {
  /** `<short rule id>/<message id>` the scanner reports for it. */
  rule: string;
  /** The secret as the scanner locates it. */
  value: string;
  /** How it appears in the fake session's text. */
  text: string;
}

/** mulberry32: small, seeded, good enough to make keys look random. */
function generator(seed: number): (alphabet: string, n: number) => string {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, n) => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";

/** A value of `n` characters of `alphabet` that starts with "FAKE". */
function fake(r: ReturnType<typeof generator>, alphabet: string, n: number): string {
  return `FAKE${r(alphabet, n - 4)}`;
}

/** A 1Password service account token: base64 of a JSON object, ending in "fQ==" ("}"). */
function opsToken(r: ReturnType<typeof generator>): string {
  let json = `{"email":"fake-${r(LOWER, 8)}@1passwordserviceaccounts.lcl","secretKey":"FAKE-${r(UPPER + DIGITS, 24)}","note":"FAKE"`;
  while ((json.length + 1) % 3 !== 1) json += " ";
  return `ops_${Buffer.from(`${json}}`).toString("base64")}`;
}

function pem(r: ReturnType<typeof generator>, label: string): string {
  const body = `MII${r(ALNUM, 61)}\n${r(ALNUM, 64)}\n${r(ALNUM, 40)}FAKE`;
  return `-----BEGIN ${label}PRIVATE KEY-----\n${body}\n-----END ${label}PRIVATE KEY-----`;
}

export function fakeSecrets(seed = 1): FakeSecret[] {
  const r = generator(seed);
  const list: FakeSecret[] = [];
  const add = (rule: string, value: string, text = value) => list.push({ rule, value, text });
  const awsId = `AKIAFAKE${r(UPPER + DIGITS, 12)}`;
  add("aws/AWSAccessKeyID", awsId, `export AWS_ACCESS_KEY_ID=${awsId}`);
  const awsSecret = fake(r, `${ALNUM}/+`, 40);
  add("aws/AWSSecretAccessKey", awsSecret, `aws_secret_access_key = ${awsSecret}`);
  add("privatekey/PrivateKey", pem(r, "RSA "));
  add("npm/NPM_ACCESS_TOKEN", `npm_${fake(r, ALNUM, 36)}`);
  const password = fake(r, ALNUM, 14);
  add("basicauth/BasicAuth", password, `curl https://deploy:${password}@build.fake-host.test/hook`);
  add("slack/SLACK_TOKEN", `xoxb-${r(DIGITS, 11)}-${r(DIGITS, 12)}-${fake(r, ALNUM, 24)}`);
  add("slack/IncomingWebhook", `https://hooks.slack.com/services/T${r(UPPER + DIGITS, 8)}/B${r(UPPER + DIGITS, 8)}/${fake(r, ALNUM, 24)}`);
  add("sendgrid/SENDGRID_KEY", `SG.${fake(r, ALNUM, 22)}.${r(ALNUM, 43)}`);
  add("shopify/SHOPIFY_KEY", `shpat_${fake(r, ALNUM, 32)}`);
  add("stripe/STRIPE_SECRET_KEY_LIVE", `sk_live_${fake(r, ALNUM, 24)}`);
  add("stripe/STRIPE_SECRET_KEY_TEST", `sk_test_${fake(r, ALNUM, 24)}`);
  add("stripe/STRIPE_RESTRICTED_KEY_LIVE", `rk_live_${fake(r, ALNUM, 24)}`);
  add("stripe/STRIPE_RESTRICTED_KEY_TEST", `rk_test_${fake(r, ALNUM, 24)}`);
  add("github/GITHUB_TOKEN", `ghp_${fake(r, ALNUM, 36)}`);
  add("github/GITHUB_TOKEN", `github_pat_${fake(r, ALNUM, 82)}`);
  add("gitlab/GITLAB_PERSONAL_ACCESS_TOKEN", `glpat-${fake(r, ALNUM, 20)}`);
  add("grafana/GRAFANA_CLOUD_API_TOKEN", `glc_${fake(r, ALNUM, 40)}`);
  add("grafana/GRAFANA_SERVICE_ACCOUNT_TOKEN", `glsa_${fake(r, ALNUM, 32)}_${r(HEX, 8)}`);
  add("openai/OPENAI_TOKEN", `sk-proj-${fake(r, ALNUM, 74)}T3BlbkFJ${r(ALNUM, 74)}`);
  add("anthropic/ANTHROPIC_API_KEY", `sk-ant-api03-${fake(r, ALNUM, 93)}AA`);
  add("groq/GROQ_API_KEY", `gsk_${fake(r, ALNUM, 52)}`);
  add("huggingface/HUGGINGFACE_USER_ACCESS_TOKEN", `hf_${fake(r, UPPER + LOWER, 34)}`);
  add("linear/LINEAR_API_TOKEN", `lin_api_${fake(r, ALNUM, 40)}`);
  add("notion/NOTION_INTEGRATION_TOKEN", `ntn_${r(DIGITS, 11)}${fake(r, ALNUM, 35)}`);
  add("1password/OPS_TOKEN", opsToken(r));
  const mongo = fake(r, ALNUM, 16);
  add("database-connection-string/MongoDBConnection", mongo, `MONGO_URL=mongodb+srv://app:${mongo}@cluster0.fake-db.test/prod`);
  const mysql = fake(r, ALNUM, 16);
  add("database-connection-string/MySQLConnection", mysql, `DATABASE_URL=mysql://app:${mysql}@db.fake-host.test:3306/shop`);
  const pg = fake(r, ALNUM, 16);
  add("database-connection-string/PostgreSQLConnection", pg, `psql postgres://app:${pg}@pg.fake-host.test:5432/main`);
  add("hashicorp-vault/HASHICORP_VAULT_SERVICE_TOKEN", `hvs.${fake(r, ALNUM, 95)}`);
  add("vercel/VERCEL_PERSONAL_ACCESS_TOKEN", `vcp_${fake(r, ALNUM, 40)}`);
  // Databricks tokens are hex: no "FAKE" possible; "fa4e" stands in for it.
  add("databricks/DATABRICKS_PERSONAL_ACCESS_TOKEN", `dapifa4e${r(HEX, 28)}`);
  add("docker/DOCKER_PERSONAL_ACCESS_TOKEN", `dckr_pat_${fake(r, ALNUM, 27)}`);
  add("figma/FIGMA_PERSONAL_ACCESS_TOKEN", `figd_${fake(r, ALNUM, 40)}`);
  add("cloudflare/CLOUDFLARE_USER_API_TOKEN", `cfut_${fake(r, ALNUM, 40)}${r(HEX, 8)}`);
  add("tailscale/TAILSCALE_API_KEY", `tskey-api-${fake(r, ALNUM, 16)}-${r(ALNUM, 32)}`);
  return list;
}
