import { FieldResolver, Resolver, Root } from 'type-graphql';
import { DashboardTile } from './dashboard-tile.entity';
import type { TileRoot } from './dashboard.rows';
import { Insight } from './dashboard.types';

@Resolver(() => DashboardTile)
export class DashboardTileResolver {
  @FieldResolver(() => Insight, { description: 'What the tile shows: its definition and computed result.' })
  insight(@Root() tile: TileRoot) {
    return tile;
  }
}
