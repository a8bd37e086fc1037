import { E2E_PORT } from "./targets";

/** The test OpenID provider's address (e2e/support/oidc-provider.ts) and the client Cuescope is there. */
export function oidcIssuer(): string {
  return `http://127.0.0.1:${E2E_PORT + 7}`;
}

export const OIDC_CLIENT = {
  id: "cuescope-e2e",
  secret: "cuescope-e2e-client-secret",
  redirectUris: [`http://127.0.0.1:${E2E_PORT}/api/auth/callback/sso`],
};

/** What the app under test is started with to use that provider. */
export function oidcEnv(): Record<string, string> {
  return {
    CUESCOPE_OIDC_ISSUER: oidcIssuer(),
    CUESCOPE_OIDC_CLIENT_ID: OIDC_CLIENT.id,
    CUESCOPE_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    CUESCOPE_OIDC_NAME: "Example SSO",
  };
}
