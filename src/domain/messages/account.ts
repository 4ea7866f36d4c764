/**
 * The signed-in operator's own account (docs/identity.md): sessions, two-factor sign-in and
 * confirming it is you; the Operators screen shows the first two for every operator.
 */

export const sessionsMsg = {
  title: "Signed-in sessions",
  titleOf: (email: string) => `Sessions of ${email}`,
  intro: "Every browser signed in to this account. End any you do not recognise.",
  browser: "Browser",
  address: "Address",
  signedIn: "Signed in",
  lastSeen: "Last seen",
  current: "This browser",
  end: "End",
  endLabel: (browser: string) => `End the session of ${browser}`,
  ended: "Session ended",
  endCurrentConfirm: "End the session of this browser? You will be signed out.",
  none: "No signed-in sessions.",
  loadError: "Error loading sessions",
  notFound: "No such session",
  unknownBrowser: "Unknown browser",
  browserOn: (browser: string, system: string) => `${browser} on ${system}`,
} as const;

export const twoFactorMsg = {
  // The setup dialog (its menu entry and the sign-in's code step are common.ts's shellMsg).
  title: "Two-factor sign-in",
  statusOn: "Two-factor sign-in is on for your account.",
  statusOff: "Two-factor sign-in is off. Add an authenticator app to ask for a six-digit code after your password.",
  requiredTitle: "Set up two-factor sign-in",
  requiredText: "Your organisation requires two-factor sign-in. Set up an authenticator app to continue.",
  start: "Set up authenticator app",
  passwordPrompt: "Enter your password to start the setup.",
  password: "Password",
  continue: "Continue",
  scanText: "Scan this QR code with your authenticator app, or type the setup key.",
  qrLabel: "QR code for your authenticator app",
  setupKey: "Setup key",
  copy: "Copy",
  copied: "Copied",
  codePrompt: "Enter the six-digit code your app shows to confirm.",
  confirm: "Confirm",
  confirming: "Checking...",
  recoveryTitle: "Recovery codes",
  recoveryText:
    "Keep these ten codes somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown only now.",
  copyCodes: "Copy codes",
  downloadCodes: "Download",
  recoveryFileName: "pedal-console-recovery-codes.txt",
  done: "Done",
  enabled: "Two-factor sign-in is on.",
  turnOff: "Turn off two-factor sign-in",
  turnOffText: "Enter your password and a current code from your app (or a recovery code) to turn it off.",
  turnOffCode: "Code or recovery code",
  turnOffConfirm: "Turn off",
  disabled: "Two-factor sign-in is off.",
  requiredByPolicy: "Two-factor sign-in is required for your account and cannot be turned off.",
  close: "Close",
  // Answers of the API.
  wrongCode: "That code is not right. Check your app and try again.",
  codeUsed: "That code was already used. Wait for the next code from your app.",
  wrongRecoveryCode: "That recovery code is not right, or was already used.",
  codeFormat: "Enter the six digits your app shows.",
  recoveryFormat: "Enter a recovery code like abcde-12345.",
  challengeExpired: "The sign-in took too long. Sign in with your password again.",
  alreadyOn: "Two-factor sign-in is already on for your account.",
  notOn: "Two-factor sign-in is not on for your account.",
  setupRequired: "Set up two-factor sign-in before doing anything else.",
  // The Operators screen.
  column: "Two-factor",
  on: "On",
  off: "Off",
  reset: "Reset two-factor",
  resetTitle: (email: string) => `Reset two-factor sign-in of ${email}?`,
  resetText: "They will sign in with their password only (or set it up again, if required), and their sessions end.",
  resetDone: (email: string) => `Two-factor sign-in of ${email} was reset.`,
  notSelfReset: "You cannot reset your own two-factor sign-in here: turn it off from the user menu.",
} as const;

/** Confirming it is you before an admin action on operators' credentials (docs/identity.md). */
export const reauthMsg = {
  required:
    "Confirm it is you to continue: this changes an operator's credentials. Enter your password or a code from your authenticator app.",
  title: "Confirm it is you",
  intro:
    "This changes an operator's credentials. Enter your password to continue: you will not be asked again for 10 minutes.",
  introCode:
    "This changes an operator's credentials. Enter a code from your authenticator app to continue: you will not be asked again for 10 minutes.",
  password: "Your password",
  code: "Code from your authenticator app",
  useCode: "Use a code from your authenticator app",
  usePassword: "Use your password",
  submit: "Confirm",
  submitting: "Confirming...",
  wrongPassword: "That password is not right",
  oneOf: "Enter your password or a six-digit code",
  noPassword: "Your account has no password: use a code from your authenticator app, or sign in again",
  noCode: "Two-factor sign-in is not on for your account: use your password",
  ended: "Too many wrong answers: your session has ended. Sign in again.",
} as const;
