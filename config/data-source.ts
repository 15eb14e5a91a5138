import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfiguration } from './configuration';
import { buildDataSourceOptions } from './data-source-options';

/** The data source of the TypeORM CLI (`typeorm migration:show -d ...`). */
export default new DataSource(
  buildDataSourceOptions(loadConfiguration().database.connection),
);
