import { useMemo, useState, useSyncExternalStore } from 'react';
import { ApolloProvider } from '@apollo/client/react';
import { Navigate, Route, Routes } from 'react-router';
import { createClient } from './apollo';
import { session } from './session';
import { SignIn } from './SignIn';
import { Layout } from './Layout';
import { FlagsList } from './flags/FlagsList';
import { FlagForm } from './flags/FlagForm';
import { FlagPage } from './flags/FlagPage';
import { ExperimentsList } from './experiments/ExperimentsList';
import { ExperimentForm } from './experiments/ExperimentForm';
import { ExperimentPage } from './experiments/ExperimentPage';
import { CohortsList } from './cohorts/CohortsList';
import { CohortForm } from './cohorts/CohortForm';
import { CohortPage } from './cohorts/CohortPage';
import { ActivityFeed } from './activity/ActivityFeed';
import { RolesList } from './roles/RolesList';
import { RolePage } from './roles/RolePage';
import { NotYet } from './NotYet';

/** Signed out: the sign-in page (with the reason the key was refused, if it was). Signed in: the console. */
export function App() {
  const key = useSyncExternalStore(session.subscribe, session.key);
  const [reason, setReason] = useState<string | null>(null);
  // One client per key, so nothing one key read is ever shown to the next.
  const client = useMemo(
    () =>
      createClient((refused) => {
        setReason(refused);
        session.signOut();
      }),
    [key],
  );
  if (!key) return <SignIn reason={reason} onSignIn={() => setReason(null)} />;
  return (
    <ApolloProvider client={client}>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<Navigate to="/feature-flags" replace />} />
          <Route path="sign-in" element={<Navigate to="/feature-flags" replace />} />
          <Route path="feature-flags" element={<FlagsList />} />
          <Route path="feature-flags/new" element={<FlagForm />} />
          <Route path="feature-flags/:id/edit" element={<FlagForm />} />
          <Route path="feature-flags/:id" element={<FlagPage />} />
          <Route path="experiments" element={<ExperimentsList />} />
          <Route path="experiments/new" element={<ExperimentForm />} />
          <Route path="experiments/:id/edit" element={<ExperimentForm />} />
          <Route path="experiments/:id" element={<ExperimentPage />} />
          <Route path="cohorts" element={<CohortsList />} />
          <Route path="cohorts/new" element={<CohortForm />} />
          <Route path="cohorts/:id/edit" element={<CohortForm />} />
          <Route path="cohorts/:id" element={<CohortPage />} />
          <Route path="activity" element={<ActivityFeed />} />
          <Route path="roles" element={<RolesList />} />
          <Route path="roles/:id" element={<RolePage />} />
          <Route path="*" element={<NotYet what="This page" />} />
        </Route>
      </Routes>
    </ApolloProvider>
  );
}
