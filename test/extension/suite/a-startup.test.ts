import { describeStartupFigure } from '../startupFigure';

describeStartupFigure('node');
