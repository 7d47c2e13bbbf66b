/**
 * @module tools/finance
 * Money: the user's bank accounts (balance, transactions, transfers, bills, a spending alert),
 * exchange rates and share prices. `transfer_money` and `pay_bill` both move money out;
 * `get_account_balance` and `list_transactions` both answer "how am I doing".
 */
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

const account = z
  .enum(['checking', 'savings', 'credit_card'])
  .describe("Which of the user's accounts: checking (everyday), savings, or credit_card.");
const amount = z.number().positive().max(1_000_000).describe("The amount, in the account's currency (EUR).");
const currency = (what: string) =>
  z.string().length(3).describe(`${what}, ISO 4217 code, e.g. "EUR", "USD" or "JPY".`);

/** Units per euro, a fixed table: the fixture answers the same tomorrow as today. */
const UNITS_PER_EUR: Readonly<Record<string, number>> = {
  EUR: 1,
  USD: 1.08,
  GBP: 0.85,
  CHF: 0.95,
  NOK: 11.6,
  SEK: 11.3,
  DKK: 7.46,
  JPY: 168,
};

const getAccountBalance = defineTool({
  name: 'get_account_balance',
  title: 'Account balance',
  description:
    "Tell how much money is in one of the user's bank accounts right now, and how much is available.",
  input: z.object({ account }),
  output: z.object({ account: z.string(), balanceEur: z.number(), availableEur: z.number() }),
  annotations: READS,
  async run({ account }) {
    const balanceEur = stableNumber(account, 200, 9_000);
    return ok({ account, balanceEur, availableEur: balanceEur - 50 });
  },
});

const listTransactions = defineTool({
  name: 'list_transactions',
  title: 'List transactions',
  description:
    'List the payments in and out of a bank account over the last days, optionally only those matching a shop or ' +
    'category. Use it for "what did I spend on". Returns each with date, description and amount.',
  input: z.object({
    account,
    days: z.number().int().min(1).max(365).describe('How many days back to list, e.g. 30.'),
    matching: z
      .string()
      .max(100)
      .optional()
      .describe('Only transactions whose description mentions this, e.g. "Uber".'),
  }),
  output: z.object({
    transactions: z.array(z.object({ date: z.string(), description: z.string(), amountEur: z.number() })),
  }),
  annotations: READS,
  async run({ account, days, matching }) {
    const description = matching ?? 'Grocery store';
    return ok({
      transactions: [1, 2].map((index) => ({
        date: `2026-05-${String(30 - index * Math.min(days, 10)).padStart(2, '0')}`,
        description,
        amountEur: -stableNumber(`${account}${description}${index}`, 4, 120),
      })),
    });
  },
});

const transferMoney = defineTool({
  name: 'transfer_money',
  title: 'Transfer money',
  description:
    "Send money from one of the user's accounts to another of theirs or to a person's IBAN. For an invoice or a " +
    'utility bill with a reference, use pay_bill. Returns the transfer id.',
  input: z.object({
    from: account,
    to: z
      .string()
      .min(2)
      .max(100)
      .describe('Another own account ("savings") or a recipient\'s name or IBAN.'),
    amount,
  }),
  output: z.object({ id: z.string(), amountEur: z.number(), to: z.string() }),
  annotations: DESTROYS,
  async run({ from, to, amount }) {
    return ok({ id: stableId('trf', from, to, amount), amountEur: amount, to });
  },
});

const payBill = defineTool({
  name: 'pay_bill',
  title: 'Pay a bill',
  description:
    'Pay a bill or invoice (electricity, phone, rent, a card statement) to a registered payee, now or on its due date. ' +
    'Returns the payment id and date.',
  input: z.object({
    payee: z.string().min(1).max(100).describe('Who the bill is from, e.g. "City Power" or "Landlord".'),
    amount,
    reference: z
      .string()
      .max(50)
      .optional()
      .describe('The invoice or customer reference printed on the bill.'),
  }),
  output: z.object({ id: z.string(), payee: z.string(), amountEur: z.number(), paidOn: z.string() }),
  annotations: DESTROYS,
  async run({ payee, amount, reference }) {
    return ok({
      id: stableId('pay', payee, amount, reference),
      payee,
      amountEur: amount,
      paidOn: '2026-06-03',
    });
  },
});

const convertCurrency = defineTool({
  name: 'convert_currency',
  title: 'Convert currency',
  description:
    "Convert an amount from one currency to another at today's exchange rate. Moves no money. Returns the rate and the result.",
  input: z.object({
    amount: z.number().positive().max(1_000_000_000).describe('The amount to convert, e.g. 250.'),
    from: currency('The currency it is in'),
    to: currency('The currency to convert to'),
  }),
  output: z.object({ rate: z.number(), result: z.number(), from: z.string(), to: z.string() }),
  annotations: READS,
  async run({ amount, from, to }) {
    const [fromRate, toRate] = [UNITS_PER_EUR[from.toUpperCase()], UNITS_PER_EUR[to.toUpperCase()]];
    if (fromRate === undefined || toRate === undefined) {
      const unknown = fromRate === undefined ? from : to;
      return fail(`Unknown currency "${unknown}". Use one of ${Object.keys(UNITS_PER_EUR).join(', ')}.`);
    }
    const rate = Math.round((toRate / fromRate) * 10_000) / 10_000;
    return ok({ rate, result: Math.round(amount * rate * 100) / 100, from, to });
  },
});

const getStockQuote = defineTool({
  name: 'get_stock_quote',
  title: 'Share price',
  description:
    "Get a listed company's latest share price and today's change, by ticker symbol or company name.",
  input: z.object({
    symbol: z.string().min(1).max(50).describe('The ticker or company, e.g. "AAPL" or "Equinor".'),
  }),
  output: z.object({
    symbol: z.string(),
    price: z.number(),
    changePercent: z.number(),
    currency: z.string(),
  }),
  annotations: READS,
  async run({ symbol }) {
    return ok({
      symbol,
      price: stableNumber(symbol.toUpperCase(), 10, 900),
      changePercent: (stableNumber(symbol, 0, 60) - 30) / 10,
      currency: 'USD',
    });
  },
});

const setBudgetAlert = defineTool({
  name: 'set_budget_alert',
  title: 'Set a spending alert',
  description:
    'Warn the user when their spending in a category (groceries, eating out, transport...) passes a monthly limit. ' +
    'Returns the alert.',
  input: z.object({
    category: z
      .enum(['groceries', 'eating_out', 'transport', 'shopping', 'entertainment', 'travel'])
      .describe('What kind of spending to watch.'),
    monthlyLimit: amount,
  }),
  output: z.object({ id: z.string(), category: z.string(), monthlyLimitEur: z.number() }),
  annotations: WRITES,
  async run({ category, monthlyLimit }) {
    return ok({ id: stableId('alert', category), category, monthlyLimitEur: monthlyLimit });
  },
});

/** Money, in the order tools/list shows it. */
export const financeTools = [
  getAccountBalance,
  listTransactions,
  transferMoney,
  payBill,
  convertCurrency,
  getStockQuote,
  setBudgetAlert,
];
