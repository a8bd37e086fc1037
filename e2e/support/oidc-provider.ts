/**
 * A real OpenID Connect provider for the single sign-on tests (e2e/team.spec.ts): the
 * `oidc-provider` package on 127.0.0.1, with one client (Cuescope under test) and its development
 * sign-in form, which takes any login name (the person's id; their email is `<login>@example.com`)
 * and any password. Started by playwright.config.ts before the app, so the app's discovery finds it.
 */
import Provider from "oidc-provider";
import { OIDC_CLIENT, oidcIssuer } from "./oidc";

const issuer = oidcIssuer();
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: OIDC_CLIENT.id,
      client_secret: OIDC_CLIENT.secret,
      redirect_uris: OIDC_CLIENT.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  pkce: { required: () => true },
  cookies: { keys: ["cuescope e2e provider cookie key"] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    const name = id.charAt(0).toUpperCase() + id.slice(1);
    return {
      accountId: id,
      claims: async () => ({ sub: id, email: `${id}@example.com`, email_verified: true, name: `${name} (SSO)` }),
    };
  },
});
provider.proxy = false;
const server = provider.listen(Number(new URL(issuer).port), "127.0.0.1", () => {
  console.log(`oidc-provider: ${issuer}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close(() => process.exit(0)));
