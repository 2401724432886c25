/**
 * The personal API key lives in sessionStorage only (never a cookie, localStorage or a URL): it is
 * gone when the tab closes, and "Sign out" forgets it at once.
 */
const STORAGE_KEY = 'flagship.personalApiKey';

type Listener = () => void;
const listeners = new Set<Listener>();

export const session = {
  key(): string | null {
    return sessionStorage.getItem(STORAGE_KEY);
  },
  signIn(key: string): void {
    sessionStorage.setItem(STORAGE_KEY, key);
    listeners.forEach((listener) => listener());
  },
  signOut(): void {
    sessionStorage.removeItem(STORAGE_KEY);
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
