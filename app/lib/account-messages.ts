/*
 * The words of sign-up and e-mail confirmation that more than one module shows (the account model, the sign-up,
 * login and confirmation pages). The spec's own texts (part 2, Messages; rules file, Accounts) are quoted as is.
 */

/** Sign-up's answer (spec): the account works once the mailed link is opened. */
export const CHECK_EMAIL = "Signup successful! Please check your email to confirm your account.";
/** Confirmation with an awarded referral (spec). */
export const REFERRAL_AWARDED = "Signup successful! Your referrer has been awarded a bonus ticket.";
/** Confirmation without an award: the sign-up success text the app used before the confirmation step (decision 004). */
export const SIGNUP_CONFIRMED = "Signup successful! Let's set up your profile.";
/** Login of an account whose link was not opened (rules file, Accounts). */
export const UNCONFIRMED = "Please confirm your email first.";
export const INVALID_CONFIRMATION_LINK = "This confirmation link is invalid or has expired.";
/** The answer to "send the link again": true whether or not the address has an account waiting (it must not tell). */
export const CONFIRMATION_RESENT = "If that email has an account waiting for confirmation, a new confirmation link has been sent to it.";
