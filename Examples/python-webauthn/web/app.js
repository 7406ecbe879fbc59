// The example relying party's page: what app.py does natively, with the browser's WebAuthn API.
// The harness performs the user's actions through `pkcDriver.perform(action)` and hears what the
// page shows and records through `pkc.show` and `pkc.telemetry` (absent outside the harness).
"use strict";
(() => {
  const mutant = document.documentElement.dataset.mutant || "";
  const design = document.documentElement.dataset.design || "";
  const report = globalThis.pkc || { show() {}, telemetry() {} };
  const state = { token: null, username: null, stage: "signed-out", reconcile: null, lastList: null };
  const RECONCILE_DELAY = design === "signal-schedule" ? 30_000 : 1_000;

  class Refused extends Error {
    constructor(detail) { super(detail.error || "refused"); this.detail = detail; }
  }

  async function api(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
    });
    const json = await response.json();
    if (!response.ok) throw new Refused(json);
    return json;
  }

  const show = (screen) => { document.getElementById("screen").textContent = screen; };

  function enter(token, username, stage) {
    const previous = state.token;
    Object.assign(state, { token, username, stage });
    if (previous && previous !== token) api("/api/sign-out", { token: previous }).catch(() => {});
  }

  // The automatic upgrade: one conditional create, right after a sign-in that completed the
  // account's whole policy, where the browser has conditional create.
  async function startUpgrade() {
    if (design === "upgrade-delay") {
      const token = state.token;
      setTimeout(() => { if (state.token === token && state.stage === "signed-in") upgradeNow(); }, 3_000);
      return;
    }
    await upgradeNow();
  }

  async function upgradeNow() {
    if (mutant !== "upgrade-without-capability-check") {
      const capabilities = typeof PublicKeyCredential.getClientCapabilities === "function"
        ? await PublicKeyCredential.getClientCapabilities() : {};
      if (!capabilities.conditionalCreate) {
        report.telemetry("conditional-create-unavailable", {});
        if (mutant === "upgrade-modal-fallback") await register(false);
        return;
      }
    }
    await register(true);
  }

  async function register(conditional) {
    const token = state.token;
    let options;
    try {
      options = await api("/api/registration-options", { token, conditional });
    } catch (error) {
      report.telemetry("registration-options-refused", { reason: error.message });
      return;
    }
    let credential;
    try {
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
      credential = await navigator.credentials.create(conditional ? { publicKey, mediation: "conditional" } : { publicKey });
    } catch (error) {
      if (conditional) {
        // NotAllowedError: the credential manager created nothing (the expected no-op): silent.
        if (error.name !== "NotAllowedError") report.telemetry("conditional-create-failed", { error: error.name });
      } else if (error.name !== "NotAllowedError") {
        report.show("error", "The passkey could not be created.");
      }
      return;
    }
    if (state.token !== token) {
      report.telemetry("stale-registration-discarded", { account: state.username || "-" });
      return;
    }
    try {
      await api("/api/registration", { token, credential: credential.toJSON() });
    } catch (error) {
      const detail = error.detail || {};
      const attributes = { reason: error.message };
      if (detail.flags) Object.assign(attributes, { flags: detail.flags, rejectedFlags: detail.rejectedFlags || "-" });
      report.telemetry("registration-rejected", attributes);
      if (!conditional) report.show("error", "The passkey could not be saved.");
      return;
    }
    scheduleReconcile();
  }

  // Signals, where the browser has them.
  const hasSignals = () => typeof PublicKeyCredential.signalAllAcceptedCredentials === "function";

  function scheduleReconcile() {
    if (!hasSignals() || state.reconcile !== null) return;
    const token = state.token;
    if (mutant === "accepted-list-before-change") {
      api("/api/accepted-list", { token }).then((list) => { state.lastList = list; }, () => {});
    }
    state.reconcile = setTimeout(() => { state.reconcile = null; reconcile(token); }, RECONCILE_DELAY);
  }

  async function reconcile(token) {
    if (state.token !== token || state.stage !== "signed-in") return;
    let list;
    try {
      list = mutant === "accepted-list-before-change" && state.lastList ? state.lastList : await api("/api/accepted-list", { token });
    } catch (error) {
      report.telemetry("signal-skipped", { reason: error.message });
      return;
    }
    if (mutant === "partial-accepted-list" && list.allAcceptedCredentialIds.length > 0) {
      list = { ...list, allAcceptedCredentialIds: list.allAcceptedCredentialIds.slice(0, -1) };
    }
    try {
      await PublicKeyCredential.signalAllAcceptedCredentials(list);
    } catch (error) {
      report.telemetry("signal-failed", { error: error.name });
    }
  }

  async function userDetailsChanged(details, before) {
    if (typeof PublicKeyCredential.signalCurrentUserDetails !== "function") return;
    const options = { rpId: details.rpId, userId: details.userId, name: details.name, displayName: details.displayName };
    if (mutant === "user-details-without-display-name") delete options.displayName;
    if (mutant === "user-details-old-name" && before) options.name = before.name;
    try {
      await PublicKeyCredential.signalCurrentUserDetails(options);
    } catch (error) {
      report.telemetry("signal-failed", { error: error.name });
    }
  }

  // The account's RP ID, where the user named an account: the example's second RP holds accounts
  // of example.org.
  const rpOf = (username) => (username && username.endsWith("@example.org") ? "accounts.example.org" : null);

  async function passkeySignIn(action) {
    const rpId = action.rpID || rpOf(action.username) || "login.example.com";
    const options = await api("/api/authentication-options", { rpId });
    let credential;
    try {
      credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    } catch (error) {
      return;  // a cancelled sheet says nothing about any credential
    }
    let result;
    try {
      result = await api("/api/authentication", { credential: credential.toJSON() });
    } catch (error) {
      report.show("error", error.detail && error.detail.network ? "No connection. Try again." : "Sign-in failed. Try again.");
      return;
    }
    if (result.status === "signed-in") {
      enter(result.token, result.username, "signed-in");
      show("Signed in");
    } else if (result.status === "unknown-credential") {
      report.show("error", "This passkey is not valid for your account.");
      if (typeof PublicKeyCredential.signalUnknownCredential === "function") {
        try {
          await PublicKeyCredential.signalUnknownCredential({ rpId, credentialId: credential.id });
        } catch (error) {
          report.telemetry("signal-failed", { error: error.name });
        }
      }
    } else if (result.status === "revoked") {
      report.show("error", "This passkey has been removed from your account.");
      if (state.stage === "signed-in" && state.username === result.username) scheduleReconcile();
    } else if (result.status === "restricted") {
      report.show("error", "Your account is restricted.");
    } else {
      report.telemetry("sign-in-rejected", { reason: result.message || "-" });
      report.show("error", "Sign-in failed. Try again.");
    }
  }

  const outcome = (status, message) => (message === undefined ? { status } : { status, message });
  const refused = (error) => outcome("rejected", error.message);

  const actions = {
    async "password-sign-in"(action) {
      let answer;
      try {
        answer = await api("/api/sign-in", { username: action.username, password: action.password });
      } catch (error) {
        return refused(error);
      }
      enter(answer.token, action.username, answer.stage);
      if (answer.stage === "signed-in" || mutant === "upgrade-before-second-factor") startUpgrade();
      return outcome(answer.stage === "signed-in" ? "signed-in" : "second-factor-required");
    },
    async "second-factor"(action) {
      if (state.stage !== "awaiting-second-factor") return outcome("rejected", "no second factor is due");
      try {
        await api("/api/second-factor", { token: state.token, outcome: action.secondFactor });
      } catch (error) {
        return refused(error);
      }
      state.stage = "signed-in";
      if (mutant !== "upgrade-before-second-factor") startUpgrade();
      return outcome("signed-in");
    },
    async "recovery-sign-in"(action) {
      try {
        const answer = await api("/api/recovery", { username: action.username });
        enter(answer.token, action.username, "signed-in-limited");
      } catch (error) {
        return refused(error);
      }
      return outcome("signed-in-limited");
    },
    async "alternative-sign-in"(action) {
      try {
        const answer = await api("/api/alternative", { username: action.username });
        enter(answer.token, action.username, "signed-in");
      } catch (error) {
        return refused(error);
      }
      if (mutant === "upgrade-after-alternative-sign-in") startUpgrade();
      return outcome("signed-in");
    },
    async "sign-out"() {
      const token = state.token;
      Object.assign(state, { token: null, username: null, stage: "signed-out" });
      await api("/api/sign-out", { token }).catch(() => {});
      return outcome("done");
    },
    async "create-passkey"() {
      if (state.stage !== "signed-in") return outcome("rejected", "sign in first");
      register(false);
      return outcome("pending");
    },
    async "passkey-sign-in"(action) {
      passkeySignIn(action);
      return outcome("pending");
    },
    async "revoke-passkey"(action) {
      if (state.stage !== "signed-in") return outcome("rejected", "sign in first");
      try {
        await api("/api/revoke", { token: state.token, credentialId: action.credentialID.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") });
      } catch (error) {
        return refused(error);
      }
      scheduleReconcile();
      return outcome("done");
    },
    async rename(action) {
      if (state.stage !== "signed-in") return outcome("rejected", "sign in first");
      let before = null;
      let details;
      try {
        before = await api("/api/user-details", { token: state.token });
        details = await api("/api/rename", {
          token: state.token, name: action.newName, displayName: action.newDisplayName, confirmed: action.confirmed === true,
        });
      } catch (error) {
        report.show("error", "Your profile could not be saved.");
        return refused(error);
      }
      userDetailsChanged(details, before);
      return outcome("done");
    },
    async refresh() {
      if (state.stage === "signed-in") scheduleReconcile();
      return outcome("done");
    },
    async "manage-passkeys"() {
      if (state.stage !== "signed-in") return outcome("rejected", "sign in first");
      const { count } = await api("/api/passkeys", { token: state.token });
      report.show("screen", `Passkeys: ${count}`);
      return outcome("done");
    },
    async "switch-account"(action) { return actions["password-sign-in"](action); },
    async relaunch() { return outcome("done"); },
  };

  globalThis.pkcDriver = {
    async perform(action) {
      const handler = actions[action.kind];
      if (!handler) return outcome("rejected", `${action.kind} is not part of this example`);
      return handler(action);
    },
  };
})();
