import pg from 'pg';

export type Pool = pg.Pool;

export const createPool = (connectionString: string, max: number): Pool => new pg.Pool({ connectionString, max });

export async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
