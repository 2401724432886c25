import { useState, type FormEvent } from 'react';
import { session } from './session';

/** The key is checked by the first query after sign-in; a refused key comes back here with the reason. */
export function SignIn({ reason, onSignIn }: { reason: string | null; onSignIn: () => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed.startsWith('phx_')) {
      setProblem('A personal API key starts with phx_. Create one with the CLI (key:create) or the API.');
      return;
    }
    onSignIn();
    session.signIn(trimmed);
  };
  return (
    <main className="sign-in">
      <h1>Flagship</h1>
      <form onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
        <h2 id="sign-in-title">Sign in</h2>
        {reason ? (
          <p role="alert" className="error">
            Signed out: {reason}
          </p>
        ) : null}
        <label htmlFor="key">Personal API key</label>
        <input
          id="key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'key-problem' : 'key-help'}
          onChange={(event) => setKey(event.target.value)}
          required
        />
        <p id="key-help" className="help">
          Kept in this tab only, and forgotten when you sign out or close it.
        </p>
        {problem ? (
          <p id="key-problem" role="alert" className="field-error">
            {problem}
          </p>
        ) : null}
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
