/*
 * The words of the Account section of /profile and of the e-mail change link (rules file, "Your account and your
 * data"; decision 029), shown by the account model's refusals, the profile page and the tests. The spec has no text
 * for these: they follow the tone of its other messages.
 */
export const ACCOUNT_MESSAGES = {
  wrongPassword: "That password is not correct. Nothing was changed.",
  sameEmail: "That is already your email address.",
  lastAdmin: "The last admin cannot delete their account.",
  typeDelete: "Type DELETE to confirm.",
  invalidChangeLink: "This email change link is invalid or has expired.",
  emailTaken: "That email address already has an account, so your email was not changed.",
  passwordChanged: "Password changed. Your other sessions have been signed out.",
  signedOutOthers: "Signed out everywhere else.",
  /** The same answer whether the new address is free or taken (the form must not tell which addresses have an account). */
  emailChangeSent: (to: string) => `We have sent a link to ${to}. Your email changes when you open it.`,
  emailChanged: "Your email address has been changed.",
  accountDeleted: "Your account has been deleted.",
} as const;
