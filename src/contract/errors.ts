/** Error codes of the API with their HTTP status and meaning, shared by the mock and the CLI's messages. */

/** An order error: its HTTP status and what it means. */
export interface CodeInfo {
  status: number;
  message: string;
}

export const ORDER_ERRORS: Readonly<Record<string, CodeInfo>> = {
  ORD0001: { status: 404, message: 'Order id not found.' },
  ORD0002: { status: 404, message: 'Order id cannot be parsed into a known format.' },
  ORD0003: { status: 404, message: 'Listing not found.' },
  ORD0004: { status: 400, message: 'Order already processed.' },
  ORD0005: { status: 400, message: 'Bid request has an invalid bid amount.' },
  ORD0006: { status: 400, message: 'Invalid reference id.' },
  ORD0008: { status: 400, message: 'Order has no bid requests.' },
  ORD0009: { status: 400, message: 'Bid request does not name a valid listing.' },
  ORD0010: { status: 400, message: 'Bid request already processed.' },
  ORD0011: { status: 400, message: 'Investor cannot bid on own listing.' },
  ORD0012: { status: 400, message: 'Whole-listing bid requires a whole-loan investor.' },
  ORD0013: { status: 400, message: 'Listing has ended.' },
  ORD0014: { status: 400, message: 'Bid amount exceeds the order maximum.' },
  ORD0015: { status: 400, message: 'Bid amount invalid for the amount remaining on the listing.' },
  ORD0016: { status: 400, message: 'Investor not authorized to invest in the listing.' },
  ORD0017: { status: 400, message: 'Whole-loan listing cannot be partially funded.' },
  ORD0018: { status: 400, message: 'Whole-loan bid amount differs from the whole loan.' },
  ORD0019: { status: 400, message: 'Listing status cannot accept bids.' },
  ORD0020: { status: 400, message: 'Listing has not started.' },
  ORD0021: { status: 400, message: 'Insufficient funds for the debit.' },
  ORD0022: { status: 400, message: 'Investor does not meet financial suitability requirements for the state and amount.' },
  ORD0024: { status: 400, message: 'Invalid user id for the order.' },
  ORD0025: { status: 500, message: 'Listing could not be updated to Pending Complete.' },
  ORD0026: { status: 500, message: 'Bid request could not be updated to SUCCESSFUL.' },
  ORD0027: { status: 500, message: 'Error creating a new bid.' },
  ORD0029: { status: 400, message: 'Order exceeds the maximum bid count.' },
  ORD0030: { status: 400, message: 'Listing has multiple bids in the order.' },
  ORD0032: { status: 400, message: 'Investment order invalid.' },
  ORD0033: { status: 400, message: 'Bid request invalid.' },
  ORD0034: { status: 400, message: 'Order total amount invalid.' },
  ORD0035: { status: 400, message: 'Ledger amount invalid.' },
  ORD0036: { status: 400, message: 'Investor ineligible to bid on a fractional listing.' },
  ORD0037: { status: 400, message: 'Listing has a null investment type id.' },
  ORD0038: { status: 400, message: 'Investor is not active.' },
  ORD0039: { status: 400, message: 'Unsigned agreements.' },
  ORD0040: { status: 400, message: "Investor's state does not allow investing." },
  ORD0041: { status: 400, message: 'Investor has loan delinquencies.' },
  ORD0042: { status: 400, message: 'Email not verified.' },
};

/** Offer errors returned in the `errors` array (MKTPL-1001 and MKTPL-1004 come with HTTP 401). */
export const OFFER_ERRORS: Readonly<Record<string, CodeInfo>> = {
  'MKTPL-100': { status: 200, message: 'Pre-existing customer.' },
  'MKTPL-1001': { status: 401, message: 'Partner source code missing.' },
  'MKTPL-1004': { status: 401, message: 'Partner source code invalid (expired or wrong).' },
  'MKTPL-1006': { status: 200, message: 'Applicant below minimum age.' },
  'MKTPL-1007': { status: 200, message: "Service not offered in the applicant's state." },
  'MKTPL-1008': { status: 200, message: "Amount exceeds the state's limit." },
  'MKTPL-1009': { status: 200, message: 'No matching offers.' },
  'MKTPL-1012': { status: 200, message: 'Applicant data missing or malformed.' },
};

/** MKTPL-1012 assertion codes → meaning. */
export const OFFER_ASSERTIONS: Readonly<Record<string, string>> = {
  'MKTPL-1012-101': 'Loan amount missing.',
  'MKTPL-1012-102': 'Loan amount format invalid.',
  'MKTPL-1012-103': 'Loan amount below 2000.',
  'MKTPL-1012-104': 'Loan amount above 35000.',
  'MKTPL-1012-111': 'Loan purpose id missing.',
  'MKTPL-1012-112': 'Loan purpose id not an integer, or not an accepted value.',
  'MKTPL-1012-121': 'Self reported credit score missing.',
  'MKTPL-1012-122': 'Self reported credit score not an integer.',
  'MKTPL-1012-123': 'Self reported credit score not an accepted value.',
  'MKTPL-1012-131': 'Name missing.',
  'MKTPL-1012-141': 'First name missing.',
  'MKTPL-1012-142': 'Name missing.',
  'MKTPL-1012-151': 'Last name missing.',
  'MKTPL-1012-152': 'Last name format invalid.',
  'MKTPL-1012-161': 'Middle initial not a single letter.',
  'MKTPL-1012-171': 'Date of birth missing.',
  'MKTPL-1012-172': 'Date of birth not a date (MM/dd/yyyy or MM-dd-yyyy).',
  'MKTPL-1012-173': 'Below minimum age.',
  'MKTPL-1012-181': 'Social security number not 9 digits.',
  'MKTPL-1012-191': 'Address missing.',
  'MKTPL-1012-201': 'Street missing.',
  'MKTPL-1012-202': 'PO Box not allowed.',
  'MKTPL-1012-211': 'City missing.',
  'MKTPL-1012-221': 'State missing; must be two characters.',
  'MKTPL-1012-222': 'State has invalid characters.',
  'MKTPL-1012-231': 'Zip code missing.',
  'MKTPL-1012-232': 'Zip code not 5 or 5+4 digits.',
  'MKTPL-1012-242': 'Email missing.',
  'MKTPL-1012-243': 'Email format invalid.',
  'MKTPL-1012-261': 'Employment month has invalid characters.',
  'MKTPL-1012-271': 'Employment year has invalid characters.',
  'MKTPL-1012-281': 'Employment status id missing.',
  'MKTPL-1012-282': 'Employment status id not a valid integer (3, 5, 6, 7).',
  'MKTPL-1012-291': 'Yearly income missing.',
  'MKTPL-1012-292': 'Yearly income format invalid.',
  'MKTPL-1012-293': 'Yearly income exceeds the maximum.',
};

/** OAuth error codes → meaning, for the CLI's messages. */
export const AUTH_ERRORS: Readonly<Record<string, string>> = {
  invalid_token: 'Access token invalid (expired or missing).',
  invalid_request: 'Bad request (missing or unsupported parameter).',
  invalid_authkey: 'Invalid or missing auth key.',
  invalid_grant: 'Missing or invalid refresh token.',
  unauthorized: 'Client not authorized.',
  invalid_client: 'Invalid or missing client credentials.',
  unsupported_grant_type: 'Grant type unsupported.',
  insufficient_scope: 'The grant does not allow this call.',
  userCancellation: 'The user cancelled the grant.',
};

/** Validation error code of listings, loans and accounts (400, naming the bad parameter). */
export const VALIDATION_ERROR = 'VAL0001';
/** Server fault code (500). */
export const SYSTEM_ERROR = 'SYS0001';
