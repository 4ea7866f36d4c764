/**
 * The texts the web app shows before any screen loads: the shell (its sidebar, menus and toasts),
 * the sign-in screens, the error and not-found views. Loaded with the initial JavaScript: a text
 * only screens show belongs in their feature's module (or kit.ts, for the parts every screen
 * shares).
 */

export const appMsg = {
  name: "Pedal Console",
  copyright: (year: number) => `© ${year} Pedal. All rights reserved.`,
  loading: "Loading...",
  searchPlaceholder: "Search customers, users, teams...",
  signOut: "Sign Out",
  signOutEverywhere: "Sign out everywhere",
  adminLabel: "Admin",
  notFoundTitle: "Page not found",
  notFoundText: "The page you're looking for doesn't exist or has moved.",
  backHome: "Back to Dashboard",
  retry: "Retry",
  genericError: "Error",
  hookMisuse: "useAuth must be used within an AuthProvider",
} as const;

export const navMsg = {
  dashboard: "Dashboard",
  customers: "Customers",
  teams: "Teams",
  users: "Users",
  skills: "Skills",
  platforms: "Platforms",
  prompts: "Prompts",
  comments: "Comments",
  reviews: "Reviews",
  analytics: "Analytics",
  config: "Configuration",
  operators: "Operators",
  audit: "Audit log",
} as const;

export const loginMsg = {
  title: "Pedal Login",
  tagline: "We're on a mission!",
  email: "Email",
  password: "Password",
  submit: "Sign In",
  submitting: "Signing in...",
} as const;

export const ssoMsg = {
  /** Between the sign-in form and the single sign-on button. */
  or: "or",
  redirecting: "Redirecting...",
  /** Under SSO_ONLY, under the form (only break-glass accounts may use it). */
  passwordBreakGlassOnly: "Password sign-in is for break-glass accounts only.",
  /** A password sign-in refused under SSO_ONLY (403). */
  passwordOff: "Password sign-in is turned off for this console. Sign in with single sign-on instead.",
  unknownProvider: "Unknown sign-in provider",
  startFailed: "Single sign-on could not start. Try again in a moment.",
  /** The login screen's message for each refusal (`?sso_error=`), docs/identity.md. */
  refused: {
    id_token_invalid:
      "Your identity provider's answer could not be verified, so you were not signed in. Try again; if it keeps happening, ask an administrator.",
    email_not_verified:
      "Your identity provider has not verified your email address, so it cannot sign you in to the console.",
    email_missing: "Your identity provider did not share your email address, so it cannot sign you in to the console.",
    domain_not_allowed: "Single sign-on is not open to email addresses of your domain.",
    unknown_operator: "There is no console operator for your email address. Ask an administrator to add you.",
    operator_deactivated: "Your operator account is deactivated. Ask an administrator to reactivate it.",
    provider_denied: "Sign-in was cancelled at your identity provider.",
    attempt_expired: "This sign-in attempt has expired or was started in another browser. Start again.",
    failed: "Single sign-on did not complete. Try again; if it keeps happening, ask an administrator.",
  },
} as const;

/** Keyboard shortcuts: `g` then a letter, `?` (docs/keyboard.md). */
export const shortcutsMsg = {
  title: "Keyboard shortcuts",
  onThisScreen: "On this screen",
  goTo: "Go to",
  anywhere: "Anywhere",
  /** How a go-to shortcut is written: `g`, then its letter. */
  goToKeys: (letter: string) => `G then ${letter.toUpperCase()}`,
  searchKeys: "Ctrl K",
  search: "Search records and saved views",
  helpKeys: "?",
  help: "Show or hide this list",
  closeKeys: "Esc",
  close: "Close a dialog or menu",
} as const;

/**
 * The texts of other groups that the shell and the sign-in show before any screen loads, kept here
 * so that the rest of each group loads with the screens that show it; messages.ts puts each back
 * into its group (`msg.twoFactor.stepTitle`, `msg.ui.cancel`).
 */
export const shellMsg = {
  // The user menu's entry, and the second step of sign-in (`code` is the setup dialog's too).
  twoFactor: {
    menuEntry: "Two-factor sign-in",
    code: "Six-digit code",
    stepTitle: "Two-factor sign-in",
    stepText: "Enter the six-digit code from your authenticator app.",
    stepRecoveryText: "Enter one of your recovery codes. Each code works once.",
    recoveryCode: "Recovery code",
    useRecovery: "Use a recovery code instead",
    useApp: "Use a code from your app instead",
    verify: "Verify",
    verifying: "Verifying...",
    backToSignIn: "Back to sign in",
  },
  // The user menu's entries.
  sessions: {
    menu: "Sessions",
  },
  apiTokens: {
    menu: "API tokens",
  },
  // The search box's hint, the pending reviews' badge, and Recently deleted in the sidebar.
  search: {
    shortcut: "Ctrl K",
  },
  reviews: {
    navCount: (n: number) => `${n.toLocaleString("en-US")} pending`,
    navPendingSuffix: "pending",
  },
  deleted: {
    title: "Recently deleted",
  },
  // The shell's buttons and menus, and its toasts and dialogs.
  ui: {
    cancel: "Cancel",
    dismiss: "Dismiss",
    notifications: "Notifications",
    theme: "Theme",
    themeSystem: "System",
    themeLight: "Light",
    themeDark: "Dark",
    userMenu: "User menu",
    openMenu: "Open menu",
    closeMenu: "Close menu",
    menu: "Menu",
    skipToContent: "Skip to content",
    collapseSidebar: "Collapse sidebar",
    expandSidebar: "Expand sidebar",
    collapse: "Collapse",
    administration: "Administration",
  },
  // A screen's code or data that cannot be loaded, and a screen the operator's role may not open.
  lists: {
    cannotReach: "Cannot reach the server",
    cannotReachText: "Check your connection and try again.",
    notAllowedTitle: "Not available to your role",
  },
} as const;

/** SPEC.md §9 timings, in milliseconds. */
export const timings = {
  bannerMs: 3000,
  afterTeamCreateMs: 1500,
  afterTeamDeleteMs: 2000,
  afterSkillChangeMs: 1500,
} as const;
