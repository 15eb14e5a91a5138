import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { loadConfiguration } from './environment';

/** The data source of the TypeORM CLI (`typeorm migration:show -d ...`). */
export default new DataSource(
  buildDataSourceOptions(loadConfiguration().database),
);
