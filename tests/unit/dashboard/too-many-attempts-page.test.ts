import { describe, expect, it } from "vitest";
import { tooManySignInAttemptsAnswer } from "@/lib/dashboard/too-many-attempts-page";

describe("the sign-in limit's 429 page", () => {
  it("says the limit and when to retry, with Retry-After from the action's hint", () => {
    const answer = tooManySignInAttemptsAnswer("retry=17", 30);
    expect(answer.status).toBe(429);
    expect(answer.headers["Retry-After"]).toBe("17");
    expect(answer.html).toContain("<h1>Too many sign-in attempts</h1>");
    expect(answer.html).toContain("more than 30 times");
    expect(answer.html).toContain("try again in 17 seconds");
    expect(tooManySignInAttemptsAnswer("retry=1", 30).html).toContain("in 1 second.");
  });

  it("ignores a retry hint the action cannot have written (the window is one minute) and never echoes it", () => {
    for (const search of ["", "retry=0", "retry=61", "retry=2.5", "retry=<script>", "retry=-3"]) {
      const answer = tooManySignInAttemptsAnswer(search, 30);
      expect(answer.headers["Retry-After"], search).toBe("60");
      expect(answer.html).not.toContain("<script>");
    }
  });
});
