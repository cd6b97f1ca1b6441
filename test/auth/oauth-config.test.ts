/** mcp.json's `oauth` (and Cursor's `auth`): resolved settings, defaults, secrets, and the mistakes it refuses. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";

const URL = "https://mcp.example.com/mcp";
const project = (server: object) => createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { docs: { url: URL, ...server } } } });
const resolved = async (server: object) => (await loadProjectConfig({ root: project(server).root })).sections.mcp[0]!;

afterEach(() => vi.unstubAllEnvs());

describe("oauth settings", () => {
  it("authorizes a remote server by default, with the default loopback redirect port", async () => {
    expect(await resolved({})).toMatchObject({ oauth: { grant: "authorization_code", callbackPort: 33418 } });
  });

  it("is off with \"oauth\": false or an Authorization header (the header is the credential)", async () => {
    expect(await resolved({ oauth: false })).toMatchObject({ oauth: false });
    expect(await resolved({ headers: { authorization: "Bearer abc" } })).toMatchObject({ oauth: false });
  });

  it("reads a pre-registered client from the environment, joins scopes, and hides the secret in the log", async () => {
    vi.stubEnv("OAUTH_TEST_CLIENT_ID", "toolexec");
    vi.stubEnv("OAUTH_TEST_CLIENT_SECRET", "s3cret");
    const server = await resolved({ oauth: { clientId: "${OAUTH_TEST_CLIENT_ID}", clientSecret: "${OAUTH_TEST_CLIENT_SECRET}", scopes: ["read", "write"], callbackPort: 8765 } });
    expect(server).toMatchObject({ oauth: { grant: "authorization_code", clientId: "toolexec", clientSecret: "s3cret", scope: "read write", callbackPort: 8765 } });
    expect(server.secrets).toContain("s3cret");
  });

  it("accepts Cursor's spelling", async () => {
    expect(await resolved({ auth: { CLIENT_ID: "cursor-client", CLIENT_SECRET: "abc", scopes: ["read"] } })).toMatchObject({ oauth: { clientId: "cursor-client", clientSecret: "abc", scope: "read" } });
  });

  it("refuses what cannot work, pointing at the key", async () => {
    const text = await configErrorText(
      createTempProject({
        tools: { tools: [] },
        mcp: {
          mcpServers: {
            machine: { url: URL, oauth: { grant: "client_credentials", clientId: "svc" } },
            person: { url: URL, oauth: { privateKey: "pem", clientMetadataUrl: "http://example.com/client.json" } },
            orphan: { url: URL, oauth: { clientSecret: "abc" } },
            both: { url: URL, oauth: { clientId: "a" }, auth: { CLIENT_ID: "b" } },
            local: { command: "node", oauth: false },
          },
        },
      }),
    );
    expect(text).toMatchInlineSnapshot(`
      "6 problems in mcp.json:
        mcp.json:5:16 mcpServers.machine.oauth: The client_credentials grant needs "clientSecret" or "privateKey" (private_key_jwt)
        mcp.json:13:23 mcpServers.person.oauth.privateKey: "privateKey" is for the client_credentials grant; set "grant": "client_credentials"
        mcp.json:14:30 mcpServers.person.oauth.clientMetadataUrl: Expected an https URL with a path (a client ID metadata document), got "http://example.com/client.json"
        mcp.json:20:25 mcpServers.orphan.oauth.clientSecret: "clientSecret" needs "clientId" (the client it belongs to)
        mcp.json:28:15 mcpServers.both.auth: Give either "oauth" or "auth" (Cursor's spelling), not both
        mcp.json:34:7 mcpServers.local.oauth: "oauth" is for http and sse servers; this is a stdio server (it has "command")"
    `);
  });

  it("refuses a tokenEndpointAuthMethod that would be ignored or cannot work, and keeps one that works", async () => {
    const text = await configErrorText(
      createTempProject({
        tools: { tools: [] },
        mcp: {
          mcpServers: {
            registered: { url: URL, oauth: { tokenEndpointAuthMethod: "client_secret_post" } },
            person: { url: URL, oauth: { clientId: "app", clientSecret: "abc", tokenEndpointAuthMethod: "private_key_jwt" } },
            signed: { url: URL, oauth: { grant: "client_credentials", clientId: "svc", privateKey: "pem", tokenEndpointAuthMethod: "client_secret_basic" } },
            anonymous: { url: URL, oauth: { grant: "client_credentials", clientId: "svc", clientSecret: "abc", tokenEndpointAuthMethod: "none" } },
          },
        },
      }),
    );
    expect(text).toMatchInlineSnapshot(`
      "4 problems in mcp.json:
        mcp.json:6:36 mcpServers.registered.oauth.tokenEndpointAuthMethod: "tokenEndpointAuthMethod" is for a pre-registered client; set "clientId" (a dynamically registered client authenticates as the authorization server told it)
        mcp.json:14:36 mcpServers.person.oauth.tokenEndpointAuthMethod: "private_key_jwt" needs "grant": "client_credentials" and "privateKey" (the key that signs the client assertion)
        mcp.json:23:36 mcpServers.signed.oauth.tokenEndpointAuthMethod: "privateKey" authenticates with private_key_jwt, not client_secret_basic; remove "tokenEndpointAuthMethod" or set it to "private_key_jwt"
        mcp.json:32:36 mcpServers.anonymous.oauth.tokenEndpointAuthMethod: The client_credentials grant authenticates the client: "none" cannot work; use "client_secret_basic" or "client_secret_post""
    `);
    expect(await resolved({ oauth: { grant: "client_credentials", clientId: "svc", clientSecret: "abc", tokenEndpointAuthMethod: "client_secret_post" } })).toMatchObject({ oauth: { tokenEndpointAuthMethod: "client_secret_post" } });
  });
});
