"use server";

import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/lib/dashboard/auth";
import { countSignInAttempt, SIGN_IN_LIMITED_PATH } from "@/lib/dashboard/sign-in-limit";
import { CLIENT_IP_HEADER, clientIpFrom } from "@/lib/http/client-ip";

export interface SignInState {
  error: string | null;
  /** What the user typed, so a failed attempt does not empty the field. */
  email: string;
}

/**
 * The /login form. Server actions are protected against cross-site posts by Next.js (the Origin
 * header must match the Host); the attempt is counted per client IP (CONTRACT: 30/min) before the
 * password is checked, and over the limit the browser is sent to the 429 page server.ts answers.
 */
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "").slice(0, 1024);
  const password = String(form.get("password") ?? "").slice(0, 1024);
  const h = await headers();
  const limit = await countSignInAttempt(clientIpFrom(h.get("x-forwarded-for"), h.get(CLIENT_IP_HEADER)));
  if (!limit.allowed) redirect(`${SIGN_IN_LIMITED_PATH}?retry=${limit.resetSeconds}`);
  if (!email.trim() || !password) return { error: "Enter your email address and your password.", email };
  try {
    await signIn("credentials", { email, password, redirectTo: "/dashboard" });
  } catch (err) {
    // Success is a redirect (thrown as NEXT_REDIRECT, rethrown below); an AuthError is a refusal.
    if (err instanceof AuthError) return { error: "The email address or the password is wrong.", email };
    throw err;
  }
  return { error: null, email };
}

/** Sign-out: a server action (same Origin check), which clears the session cookie. */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
