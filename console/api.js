// The console's calls to /console/api: JSON over fetch with the bearer token when the server wants
// one. The token is asked for once (a 401), kept in sessionStorage for this tab, sent only as an
// Authorization header on these same-origin calls, and never put in a URL.

const TOKEN_KEY = "toolexec-console-token";

let waitingForToken;

/** Show the sign-in dialog; resolves once a token was entered. */
function askForToken(message) {
  waitingForToken ??= new Promise((resolve) => {
    const dialog = document.getElementById("login");
    const form = document.getElementById("login-form");
    const input = document.getElementById("login-token");
    document.getElementById("login-error").textContent = message;
    input.value = "";
    form.addEventListener(
      "submit",
      (event) => {
        event.preventDefault();
        sessionStorage.setItem(TOKEN_KEY, input.value);
        dialog.close();
        waitingForToken = undefined;
        resolve();
      },
      { once: true },
    );
    dialog.showModal();
    input.focus();
  });
  return waitingForToken;
}

/** Forget the token (the button in the header). */
export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

export const hasToken = () => sessionStorage.getItem(TOKEN_KEY) !== null;

/** `{ status, data }` of a console endpoint; asks for the token (again) on 401. */
export async function api(path, { method = "GET", body } = {}) {
  for (;;) {
    const token = sessionStorage.getItem(TOKEN_KEY);
    const headers = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`/console/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store", credentials: "omit" });
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      await askForToken(token === null ? "" : "That token was refused; try again.");
      continue;
    }
    const data = await response.json().catch(() => ({ ok: false, error: { code: "HTTP", message: `HTTP ${response.status}` } }));
    return { status: response.status, data };
  }
}
