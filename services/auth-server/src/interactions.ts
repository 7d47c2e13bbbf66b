/**
 * @module interactions
 * The pages a person sees during authorization code + PKCE: sign in as one of the workshop's
 * people (`demo` or `guest`), then allow the scopes the client asked for. oidc-provider drives the flow and keeps its state (the
 * interaction cookie ties a form post to the flow that showed it); this module only renders and
 * answers the forms.
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { consentPage, loginPage, sendPage as send } from './html.js';

export const DEMO_USER = 'demo';
/** A second person, so two people on one machine get tokens with different subjects (`sub`). */
export const GUEST_USER = 'guest';
/** A login form is two short fields; anything bigger is not a person typing. */
const MAX_FORM_BYTES = 8 * 1024;

export interface InteractionOptions {
  provider: Provider;
  /** Who may sign in: user name to password. The user name becomes the tokens' `sub`. */
  passwords: ReadonlyMap<string, string>;
}

class FormTooLarge extends Error {}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new FormTooLarge();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Scopes the consent prompt is missing, OpenID ones and the resource's, as one list. */
function missingScopes(details: Record<string, unknown>): string[] {
  const oidc = Array.isArray(details.missingOIDCScope) ? (details.missingOIDCScope as string[]) : [];
  const byResource = (details.missingResourceScopes ?? {}) as Record<string, string[]>;
  return [...new Set([...oidc, ...Object.values(byResource).flat()])];
}

/** Handles `/interaction/<uid>[/<action>]`; answers 4xx for anything it doesn't know. */
export function createInteractions({ provider, passwords }: InteractionOptions) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const [, , uid = '', action] = path.split('/');
    let interaction: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      interaction = await provider.interactionDetails(req, res);
    } catch {
      send(
        res,
        400,
        loginPage('', '', 'This sign-in has expired or was not started here. Start again from the app.'),
      );
      return;
    }
    if (interaction.uid !== uid) {
      send(res, 400, loginPage('', '', 'This sign-in page does not belong to the current sign-in.'));
      return;
    }
    const clientId = String(interaction.params.client_id ?? '');
    const prompt = interaction.prompt;

    if (req.method === 'GET' && action === undefined) {
      if (prompt.name === 'login') return send(res, 200, loginPage(uid, clientId));
      return send(res, 200, consentPage(uid, clientId, missingScopes(prompt.details)));
    }
    if (req.method !== 'POST') return send(res, 405, loginPage(uid, clientId, 'Use the form.'));

    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (error) {
      if (error instanceof FormTooLarge)
        return send(res, 413, loginPage(uid, clientId, 'That form was too large.'));
      throw error;
    }

    if (action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (action === 'login' && prompt.name === 'login') {
      const username = form.get('username') ?? '';
      const password = form.get('password') ?? '';
      const expected = passwords.get(username);
      // Compared even for an unknown user name, so the answer takes as long either way.
      const matches = sameSecret(password, expected ?? '') && expected !== undefined;
      if (!matches) return send(res, 401, loginPage(uid, clientId, 'Wrong user name or password.'));
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: username } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (action === 'confirm' && prompt.name === 'consent') {
      const { session, grantId: existing } = interaction;
      if (!session) return send(res, 400, loginPage(uid, clientId, 'Sign in first.'));
      const grant = existing
        ? await provider.Grant.find(existing)
        : new provider.Grant({ accountId: session.accountId, clientId });
      if (!grant)
        return send(
          res,
          400,
          loginPage(uid, clientId, 'This sign-in has expired. Start again from the app.'),
        );
      const details = prompt.details;
      if (Array.isArray(details.missingOIDCScope))
        grant.addOIDCScope((details.missingOIDCScope as string[]).join(' '));
      for (const [resource, scopes] of Object.entries(
        (details.missingResourceScopes ?? {}) as Record<string, string[]>,
      )) {
        grant.addResourceScope(resource, scopes.join(' '));
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    send(
      res,
      400,
      loginPage(uid, clientId, 'That step does not fit this sign-in. Start again from the app.'),
    );
  };
}
