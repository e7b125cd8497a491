import { describeStartupFigure } from '../startupFigure';

describeStartupFigure('browser');
