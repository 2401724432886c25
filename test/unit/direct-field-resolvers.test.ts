import { graphql } from 'graphql';
import { Arg, buildSchema, type BuildSchemaOptions, Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { withDirectFieldResolvers } from '../../src/graphql/direct-field-resolvers';

/**
 * src/graphql/direct-field-resolvers.ts: a field resolver that needs nothing of type-graphql's
 * wrapper is called directly, one that does keeps it, and both answer as type-graphql does.
 */
@ObjectType()
class Item {
  @Field(() => Int)
  id!: number;

  get twice() {
    return this.id * 2;
  }
}

type ItemRow = { id: number };
const seen: { root: unknown; context: unknown }[] = [];

@Resolver(() => Item)
class ItemResolver {
  @Query(() => [Item])
  items(@Arg('plain', () => Boolean) plain: boolean) {
    // A plain object is not an Item: type-graphql converts it before a class-typed root sees it.
    return [1, 2].map((id) => (plain ? { id } : Object.assign(new Item(), { id })));
  }

  @FieldResolver(() => Int)
  label(@Root() item: Item, @Ctx() context: { offset: number }) {
    seen.push({ root: item, context });
    return item.twice + context.offset;
  }

  @FieldResolver(() => Int)
  fromRow(@Root() row: ItemRow) {
    return row.id;
  }

  @FieldResolver(() => Int)
  plus(@Root() item: Item, @Arg('by', () => Int) by: number) {
    return item.id + by;
  }
}

async function run(direct: boolean, plain: boolean) {
  const options = { resolvers: [ItemResolver], validate: false, skipCheck: true } as const;
  const schema = await buildSchema(options);
  const replaced = direct ? withDirectFieldResolvers(schema, options) : 0;
  seen.length = 0;
  const context = { offset: 10 };
  const result = await graphql({
    schema,
    source: 'query($plain: Boolean!) { items(plain: $plain) { id label fromRow plus(by: 5) } }',
    variableValues: { plain },
    contextValue: context,
  });
  return { replaced, result, seen: [...seen], context };
}

describe('direct field resolvers', () => {
  it('replace the root-and-context resolvers and keep the one with an argument', async () => {
    const { replaced } = await run(true, false);
    expect(replaced).toBe(2);
  });

  it.each([false, true])('answer as type-graphql does (plain roots: %s)', async (plain) => {
    const wrapped = await run(false, plain);
    const direct = await run(true, plain);
    expect(wrapped.result.errors).toBeUndefined();
    expect(direct.result).toEqual(wrapped.result);
    expect(direct.result.data).toEqual({
      items: [
        { id: 1, label: 12, fromRow: 1, plus: 6 },
        { id: 2, label: 14, fromRow: 2, plus: 7 },
      ],
    });
    // A class-typed root is an instance of its class either way, and the context is the request's own.
    for (const call of direct.seen) {
      expect(call.root).toBeInstanceOf(Item);
      expect(call.context).toBe(direct.context);
    }
  });

  it('leave every wrapper in place on a schema built with global middlewares (a direct call would skip them)', async () => {
    const calls: string[] = [];
    const options: BuildSchemaOptions = {
      resolvers: [ItemResolver],
      validate: false,
      skipCheck: true,
      globalMiddlewares: [
        ({ info }: { info: { fieldName: string } }, next: () => Promise<unknown>) => (calls.push(info.fieldName), next()),
      ],
    };
    const schema = await buildSchema(options);
    expect(withDirectFieldResolvers(schema, options)).toBe(0);
    await graphql({ schema, source: '{ items(plain: false) { label } }', contextValue: { offset: 0 } });
    expect(calls.filter((name) => name === 'label')).toHaveLength(2);
  });
});
