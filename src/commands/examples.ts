/**
 * Examples shown under each command's help, keyed by command path, in one table so that every
 * command's examples read alike; `help.ts` adds them. Lines stay under 80 columns: help text added
 * after the options is not wrapped.
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  mkt: [
    '$ mkt demo                                   # the whole story, no network',
    '$ mkt listings search --fico_score 760-779 --limit 5',
    '$ mkt account -o json',
    '$ source <(mkt completion bash)',
  ],
  'mkt login': ['$ mkt login', '$ mkt login --no-browser --timeout 300', '$ mkt --profile work login'],
  'mkt logout': ['$ mkt logout', '$ mkt --profile work logout'],
  'mkt auth': ['$ mkt auth status', '$ mkt auth token'],
  'mkt auth status': ['$ mkt auth status', '$ mkt --profile work auth status -o json'],
  'mkt auth token': ['$ curl -H "Authorization: Bearer $(mkt auth token)" http://127.0.0.1:4010/v1/loans/'],
  'mkt config': ['$ mkt config set timezone Europe/Berlin', '$ mkt config list'],
  'mkt config list': ['$ mkt config list', '$ mkt --profile work config list -o json'],
  'mkt config get': ['$ mkt config get base_url'],
  'mkt config set': ['$ mkt config set root_url http://127.0.0.1:4010', '$ mkt --profile work config set output csv'],
  'mkt config unset': ['$ mkt config unset timezone'],
  'mkt doctor': [
    '$ mkt doctor',
    '$ mkt doctor -o json --query "[?status==\'fail\']"',
    '$ env -i HOME="$HOME" PATH=/usr/bin:/bin "$(command -v mkt)" doctor   # as cron',
  ],
  'mkt listings': ['$ mkt listings search --platform_rating A,B --sort-by "borrower_rate desc"', '$ mkt listings get 10042'],
  'mkt listings search': [
    '$ mkt listings search --fico_score 760-779,780-799 --listing_term 36',
    '$ mkt listings search --platform_rating AA,A --sort-by "lender_yield desc"',
    '$ mkt listings search --borrower_rate_min 0.1 --has_mortgage false',
    '$ mkt listings search --at02s_min 3 --include-credit-bureau-values bureau2',
    '$ mkt listings search --all -o ndjson > listings.ndjson',
    '$ mkt listings search --platform_rating B -o csv --columns listing_number \\',
    '    | mkt order submit - --amount 25 --yes',
  ],
  'mkt listings fields': ['$ mkt listings fields', '$ mkt listings fields -o csv | grep bureau2'],
  'mkt listings get': ['$ mkt listings get 10042', '$ mkt listings get 10042 -o json'],
  'mkt order': ['$ mkt order submit bids.csv --amount 25 --wait', '$ mkt order list'],
  'mkt order submit': [
    '$ mkt order submit bids.csv --dry-run',
    '$ mkt order submit bids.csv --amount 25 --yes --wait --until completed',
    "$ printf 'listing_id,bid_amount\\n10042,25\\n' | mkt order submit - --yes",
  ],
  'mkt order get': ['$ mkt order get ORDER_ID', '$ mkt order get ORDER_ID --wait --timeout 600'],
  'mkt order list': ['$ mkt order list', '$ mkt order list --all -o csv'],
  'mkt order listings': ['$ mkt order listings ORDER_ID', '$ mkt order listings ORDER_ID --status INVESTED'],
  'mkt order journal': ['$ mkt order journal', '$ mkt order journal -o json'],
  'mkt invest': [
    '$ mkt invest check strategy.yaml',
    '$ mkt invest run strategy.yaml --dry-run',
    '$ mkt invest simulate strategy.yaml --months 12',
  ],
  'mkt invest check': ['$ mkt invest check strategy.yaml'],
  'mkt invest run': ['$ mkt invest run strategy.yaml --dry-run', '$ mkt invest run strategy.yaml --yes --wait --log invest.jsonl'],
  'mkt invest simulate': [
    '$ mkt invest simulate strategy.yaml --months 12',
    '$ mkt invest simulate strategy.yaml --months 6 --seed 7 --cash 5000',
    '$ mkt invest simulate strategy.yaml --months 3 -o json > simulation.json',
  ],
  'mkt loans': ['$ mkt loans list', '$ mkt loans get 20017', '$ mkt loans payments 20017 --since 2025-01-01'],
  'mkt loans list': ['$ mkt loans list --sort-by "principal_balance desc"', '$ mkt loans list --all -o csv > loans.csv'],
  'mkt loans get': ['$ mkt loans get 20017', '$ mkt loans get 20017 -o json'],
  'mkt loans payments': ['$ mkt loans payments 20017', '$ mkt loans payments 20017 20018 --since 2025-01-01 --all -o csv'],
  'mkt notes': ['$ mkt notes list', '$ mkt notes get 500123-900456'],
  'mkt notes list': [
    '$ mkt notes list --status defaulted,chargeoff',
    '$ mkt notes list --status current --rating A,B -o csv > notes.csv',
    '$ mkt notes list --sort-by "principal_balance_pro_rata_share desc"',
    '$ mkt notes list --all -o ndjson --columns loan_note_id,note_status',
  ],
  'mkt notes get': ['$ mkt notes get 500123-900456', '$ mkt notes get 500123-900456 -o json'],
  'mkt portfolio': [
    '$ mkt portfolio',
    "$ mkt portfolio -o json --query 'annualized_return'",
    '$ mkt portfolio --as-of 2025-12-31',
    '$ mkt portfolio --by vintage --period quarter',
    '$ mkt portfolio --by rating -o csv > defaults-by-rating.csv',
  ],
  'mkt statement': [
    '$ mkt statement --year 2026',
    '$ mkt statement --year 2026 -o csv > notes-2026.csv',
    '$ mkt statement --from 2026-01-01 --to 2026-06-30 -o json',
  ],
  'mkt account': ['$ mkt account', '$ mkt account -o json'],
  'mkt offers': ['$ mkt offers request applicant.json --partner-code CODE'],
  'mkt offers request': ['$ mkt offers request applicant.json --partner-code CODE', '$ cat applicant.json | mkt offers request -'],
  'mkt demo': ['$ mkt demo', '$ mkt demo --seed 42 --listings 500'],
  'mkt mock': ['$ mkt mock serve --frozen', '$ mkt mock clock advance 15d'],
  'mkt mock serve': [
    '$ mkt mock serve',
    '$ mkt mock serve --port 0 --state mock-state.json --frozen',
    '$ mkt mock serve --auto-approve alice --listings 1000',
    '$ mkt mock serve --listings 0 --history none        # an empty marketplace',
  ],
  'mkt mock openapi': ['$ mkt mock openapi > openapi.json', '$ curl http://127.0.0.1:4010/openapi.json          # the running mock'],
  'mkt mock clock': ['$ mkt mock clock advance 24h'],
  'mkt mock clock advance': ['$ mkt mock clock advance 90m', '$ mkt mock clock advance 15d', '$ mkt mock clock advance PT1H'],
  'mkt mock proxy': [
    '$ mkt mock proxy --upstream http://127.0.0.1:4010 --port 4011',
    '$ MKT_ROOT_URL=http://127.0.0.1:4011 mkt listings search --limit 5   # through it',
    '$ MKT_ROOT_URL=http://127.0.0.1:4011 mkt mock requests --violations',
  ],
  'mkt mock requests': [
    '$ mkt mock requests --limit 20',
    '$ mkt mock requests --follow -o ndjson | jq .status',
    '$ mkt mock requests --violations   # at a mkt mock proxy',
  ],
  'mkt mock process': ['$ mkt mock process', '$ mkt order submit bids.csv --yes && mkt mock process'],
  'mkt mock outbox': ['$ mkt mock outbox', '$ mkt mock outbox --to alice@investors.example -o json'],
  'mkt mock snapshot': ['$ mkt mock snapshot save before-run', '$ mkt mock snapshot load before-run', '$ mkt mock snapshot list'],
  'mkt mock snapshot save': ['$ mkt mock snapshot save before-run', '$ mkt mock snapshot save before-run --replace'],
  'mkt mock snapshot load': [
    '$ mkt mock snapshot load before-run   # the world and the clock as saved',
    '$ mkt mock snapshot load before-run --keep-clock   # the saved world brought forward to the clock',
    '$ mkt mock serve --state mock-state --from-snapshot before-run   # start from it',
  ],
  'mkt mock snapshot list': ['$ mkt mock snapshot list', '$ mkt mock snapshot list -o json'],
  'mkt mock snapshot rm': ['$ mkt mock snapshot rm before-run'],
  'mkt api': [
    '$ mkt api GET /v1/accounts/platform',
    '$ mkt api GET /listingsvc/v2/listings/ -f platform_rating=A,B -F limit=5',
    '$ mkt api GET /v1/loans/ --paginate',
    '$ mkt api POST /v1/orders/ --input bids.json',
  ],
  'mkt completion': [
    '$ source <(mkt completion bash)                  # add it to ~/.bashrc',
    '$ mkt completion zsh > "${fpath[1]}/_mkt"',
    '$ mkt completion fish > ~/.config/fish/completions/mkt.fish',
  ],
};

/** The example lines of a command (none when the table has no entry). */
export function examplesOf(path: string): readonly string[] {
  return EXAMPLES[path] ?? [];
}
