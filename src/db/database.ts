import { MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import { ormConfig } from '../../mikro-orm.config';
import { ensureDatabase } from './ensure-database';
import { migrate } from './migrate';
import { findRunningEmbeddedDatabase, startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';

export interface Database {
  orm: MikroORM;
  /** Where it lives, for logs: the server URL without credentials, or the embedded data dir. */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** The CLI may share a running server's embedded database instead of opening the directory. */
  shareRunningEmbedded?: boolean;
  /** Create the database DATABASE_URL names when it does not exist (--create-database); else that is refused. */
  createDatabase?: boolean;
}

/** Opens the database the environment names and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let url = options.databaseUrl;
  let description = url ? url.replace(/\/\/[^@/]*@/, '//') : '';
  let poolSize = options.poolSize ?? 10;
  if (url) {
    await ensureDatabase(url, { create: options.createDatabase ?? false });
  } else {
    const dataDir = path.resolve(options.dataDir ?? '.data');
    description = `embedded PostgreSQL in ${dataDir}`;
    url = options.shareRunningEmbedded ? ((await findRunningEmbeddedDatabase(dataDir)) ?? undefined) : undefined;
    if (url) {
      poolSize = 1;
    } else {
      embedded = await startEmbeddedDatabase({ dataDir });
      url = embedded.url;
      // The socket server admits a fixed number of clients; leave room for the change listener's
      // connection and a CLI beside the server (src/db/embedded.ts).
      poolSize = Math.min(poolSize, embedded.maxConnections - 3);
    }
  }
  const orm = await MikroORM.init(ormConfig(url, { poolSize })).catch(async (error) => {
    await embedded?.stop();
    throw error;
  });
  try {
    await migrate(orm);
  } catch (error) {
    // The pool goes before the embedded server, or its idle connections error out.
    await orm.close(true);
    await embedded?.stop();
    throw error;
  }
  return {
    orm,
    description,
    async close() {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
